// expect: wrong_answer
// why: an init function calls main, hoping it writes the end-of-tests line, then exits 0; main is wasmeval's, and all it does is run every test, which the wrong Add fails before any line is written
package main

import "os"

func init() {
	main()
	os.Exit(0)
}

func Add(a, b int) int {
	return 0
}
