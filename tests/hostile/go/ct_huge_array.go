// expect: compile_error
// why: a 4 GiB initialised global would make the compiler and linker build a data section of that size; Go refuses globals this large for wasm (or the module exceeds the 32 MiB module limit)
package main

var big = [1 << 32]byte{1}

func main() {
	println(big[len(big)-1])
}
