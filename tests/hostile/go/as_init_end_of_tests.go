// expect: compile_error
// why: an init function calls wasmeval's end-of-tests function, which wrote the line with the run's token, and exits 0 before any test runs; wasmeval's main now writes the line itself, so there is no such function to call
package main

import "os"

func init() {
	__wasmeval_end_of_tests()
	os.Exit(0)
}

func Add(a, b int) int {
	return 0
}
