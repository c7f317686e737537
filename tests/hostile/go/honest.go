// expect: passed
// why: control: a plain, correct program with no tricks compiles and passes
package main

import "fmt"

func main() {
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
