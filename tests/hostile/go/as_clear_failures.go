// expect: compile_error
// why: the function under test clears the failures that wasmeval's stand-ins recorded in a package variable, so that a later test's end would write the end-of-tests line; main counts the failures in a variable of its own, so there is no such package variable
package main

func Add(a, b int) int {
	__wasmeval_failed = false
	return 0
}
