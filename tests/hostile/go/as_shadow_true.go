// expect: compile_error
// why: redeclares Go's `true` as false at package level, which hides it in every file of the package: wasmeval's stand-ins recorded a failure with `t.failed = true`, so a test reporting with t.Errorf never failed; wasmeval's file checks at compile time that true, false, nil, len, cap, append and panic are Go's own
package main

const true = false

func Add(a, b int) int {
	return 0
}
