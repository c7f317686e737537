// expect: runtime_error
// why: runtime.Goexit ends the calling goroutine (the test's) after running deferred calls, so the test never returns; Go then reports a deadlock (no goroutines left) and exits 2
package main

import "runtime"

func Add(a, b int) int {
	runtime.Goexit()
	return 0
}
