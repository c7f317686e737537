// expect: wrong_answer
// why: writes through unsafe.Pointer at 1 TiB, far beyond its memory, hoping to reach the host's; Go's wasm code wraps addresses to the 32-bit linear memory, so the store lands inside the instance's own memory (every access is bounds-checked against it), nothing outside changes, and the program prints 42 instead of the answer
package main

import (
	"fmt"
	"unsafe"
)

func main() {
	p := (*int64)(unsafe.Pointer(uintptr(1) << 40))
	*p = 42
	fmt.Println(*p)
}
