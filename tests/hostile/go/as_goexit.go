// expect: runtime_error
// why: runtime.Goexit ends the calling goroutine (the test's) after running deferred calls, so the test never returns; as in `go test`, a test ended so fails, and the program exits 1 without the end-of-tests line
package main

import "runtime"

func Add(a, b int) int {
	runtime.Goexit()
	return 0
}
