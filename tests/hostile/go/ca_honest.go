// expect: passed
// why: control: a correct Add passes the host-judged calls
package main

func Add(a, b int) int {
	return a + b
}
