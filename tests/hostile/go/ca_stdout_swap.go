// expect: runtime_error
// why: replaces os.Stdout with a pipe in init, so that the driver's report goes nowhere while the candidate prints what it likes; without the report no case has a value, and the run counts as cut short
package main

import "os"

func init() {
	_, w, _ := os.Pipe()
	os.Stdout = w
}

func Add(a, b int) int {
	return 0
}
