// expect: runtime_error
// why: exits with status 0 from an init function, before any row is evaluated
package main

import "os"

func init() {
	os.Exit(0)
}

func add(x int, y int) int {
	return x + y
}
