// expect: compile_error
// why: //go:wasmimport declares a host function of the module's choosing (here env.system); if it compiled, the sandbox's linker has no such import and could not instantiate the module
package main

//go:wasmimport env system
func system(cmd int32) int32

func main() {
	system(0)
}
