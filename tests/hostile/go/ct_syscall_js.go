// expect: compile_error
// why: imports syscall/js to reach a JavaScript host's globals; the build is for wasip1, where the package does not exist (its files are js-only), so it does not compile
package main

import "syscall/js"

func main() {
	js.Global().Call("eval", "process.exit(0)")
}
