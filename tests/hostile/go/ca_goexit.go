// expect: runtime_error
// why: runtime.Goexit ends the test's goroutine during the first call; as in `go test`, a test that ends so fails, and the driver exits 1 without reporting done
package main

import "runtime"

func Add(a, b int) int {
	runtime.Goexit()
	return a + b
}
