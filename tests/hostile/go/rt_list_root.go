// expect: passed
// why: lists /, /root and /tmp with os.ReadDir and tries to create /tmp/wasmeval-go-escape on the host before answering; only the sandbox's own empty /tmp is there, so nothing of the host is listed and no host file appears
// must-not-output: entry:etc
// must-not-output: entry:home
// must-not-output: entry:usr
// host-path-absent: /tmp/wasmeval-go-escape
package main

import (
	"fmt"
	"os"
)

func main() {
	for _, dir := range []string{"/", "/root", "/tmp", "."} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			fmt.Fprintln(os.Stderr, "entry:"+e.Name())
		}
	}
	os.WriteFile("/tmp/wasmeval-go-escape", []byte("x"), 0o644)
	os.WriteFile("../../tmp/wasmeval-go-escape", []byte("x"), 0o644)
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
