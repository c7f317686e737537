// expect: runtime_error
// why: returns right sums but starts a goroutine that panics; a panic in any goroutine ends the Go program (exit code 2), so the run does not finish and the case running then fails
package main

import "time"

func Add(a, b int) int {
	go func() {
		panic("from a goroutine")
	}()
	time.Sleep(time.Millisecond)
	return a + b
}
