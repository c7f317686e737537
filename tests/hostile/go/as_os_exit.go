// expect: runtime_error
// why: os.Exit(0) from the function under test: the test never reaches its end, so there is no end-of-tests line and exit code 0 proves nothing
package main

import "os"

func Add(a, b int) int {
	os.Exit(0)
	return 0
}
