// expect: passed
// why: control: a correct Add passes the assertion test
package main

func Add(a, b int) int {
	return a + b
}
