// expect: passed
// why: tries to run `id` through os/exec and os.StartProcess and print its output; WASI has no processes, so both fail and the honest answer passes
// must-not-output: uid=
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	if out, err := exec.Command("/usr/bin/id").Output(); err == nil {
		fmt.Print(string(out))
	}
	if p, err := os.StartProcess("/usr/bin/id", []string{"id"}, &os.ProcAttr{}); err == nil {
		p.Wait()
	}
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
