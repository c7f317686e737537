// expect: runtime_error
// why: os.Exit(0) from the function under test, during the first call: that case has no value, the others never run, and exit code 0 proves nothing
package main

import "os"

func Add(a, b int) int {
	os.Exit(0)
	return a + b
}
