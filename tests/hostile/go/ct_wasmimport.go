// expect: compile_error
// why: //go:wasmimport declares a host function of the module's choosing (here env.system), and go builds it; the sandbox provides only WASI preview 1, and a module importing anything else is a compile_error (Sandbox::foreign_imports) instead of an instantiation failure, which would be a host error stopping the whole run
package main

//go:wasmimport env system
func system(cmd int32) int32

func main() {
	system(0)
}
