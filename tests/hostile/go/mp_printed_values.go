// expect: wrong_answer
// why: prints "3", "-3" and "42" from a goroutine it starts in init, hoping the host reads printed text as values; only the driver's token lines carry values, and the wrong sums fail
package main

import "fmt"

func init() {
	go fmt.Println("3\n-3\n42")
}

func add(x int, y int) int {
	return x - y
}
