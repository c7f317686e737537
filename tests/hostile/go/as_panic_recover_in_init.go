// expect: wrong_answer
// why: swaps os.Stdout for a pipe in init to swallow the test's output, and returns wrong sums; the failed assertion goes to stderr and exits 1 whatever stdout is
package main

import "os"

func init() {
	_, w, _ := os.Pipe()
	if w != nil {
		os.Stdout = w
	}
}

func Add(a, b int) int {
	return 0
}
