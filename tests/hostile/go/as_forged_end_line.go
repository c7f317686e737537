// expect: runtime_error
// why: prints an end-of-tests line with a guessed token (the real one is fresh per run and 128 bits) and exits 0 before the tests
package main

import (
	"fmt"
	"os"
)

func Add(a, b int) int {
	fmt.Print("\nwasmeval-00000000000000000000000000000000 end\nend\n")
	os.Exit(0)
	return 0
}
