// expect: compile_error
// why: //go:embed of a host file would bake /etc/passwd into the module; embed patterns may not leave the package folder (absolute paths and .. are refused), and Landlock denies the read anyway
// must-not-output: root:x:0:0
package main

import (
	_ "embed"
	"fmt"
)

//go:embed /etc/passwd
var passwd string

func main() {
	fmt.Println(passwd)
}
