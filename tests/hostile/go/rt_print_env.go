// expect: passed
// why: prints every environment variable (os.Environ) and the compile-time GOROOT to stderr and the honest answer to stdout; the module's environment holds none of the host's variables, and -trimpath keeps the build's paths out of the module
// must-not-output: env:HOME=
// must-not-output: env:PATH=
// must-not-output: env:USER=
// must-not-output: /root/.cache
package main

import (
	"fmt"
	"os"
	"runtime"
)

func main() {
	for _, kv := range os.Environ() {
		fmt.Fprintln(os.Stderr, "env:"+kv)
	}
	fmt.Fprintln(os.Stderr, "goroot:"+runtime.GOROOT())
	host, err := os.Hostname()
	fmt.Fprintln(os.Stderr, "hostname:", host, err)
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
