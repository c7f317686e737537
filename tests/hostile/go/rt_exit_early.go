// expect: wrong_answer
// why: prints a wrong answer and exits with status 0 at once; an exit code never passes a case, only the output does
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println(4)
	os.Exit(0)
}
