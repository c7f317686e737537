// expect: passed
// why: control: a correct add passes MultiPL-E's rows, compared as their %v strings on the host
package main

func add(x int, y int) int {
	return x + y
}
