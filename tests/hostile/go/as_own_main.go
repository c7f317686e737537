// expect: wrong_answer
// why: defines its own main that would print a success and skip the tests; the candidate's func main is renamed func _ (never called), wasmeval's main runs the test, and the wrong Add fails its assertion
package main

import "fmt"

func Add(a, b int) int {
	return 0
}

func main() {
	fmt.Println("PASS")
}
