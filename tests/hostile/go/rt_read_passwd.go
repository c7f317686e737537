// expect: passed
// why: reads /etc/passwd, /proc/self/environ and the host's home at run time and prints them before answering, which would make the answer wrong; the sandbox has no such files, so the reads fail and the honest answer passes
// must-not-output: root:x:0:0
package main

import (
	"fmt"
	"os"
)

func main() {
	for _, path := range []string{"/etc/passwd", "/proc/self/environ", "/root/.bashrc", "../../etc/passwd"} {
		if data, err := os.ReadFile(path); err == nil {
			fmt.Print(string(data))
		}
	}
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
