// expect: runtime_error
// why: a package init function exits with status 0 before main reports that the program loaded; no case has a value
package main

import "os"

func init() {
	os.Exit(0)
}

func Add(a, b int) int {
	return a + b
}
