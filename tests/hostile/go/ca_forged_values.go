// expect: wrong_answer
// why: reads the token and writes a whole well-formed report of its own (every value 0, in the typed form) and exits 0 before the driver reports; the host compares the forged values with expected values the module never held, so they are wrong
package main

import "os"

func Add(a, b int) int {
	token := os.Args[1]
	say := func(line string) { os.Stdout.WriteString("\n" + token + " " + line + "\n") }
	say("loaded")
	for _, i := range []string{"0", "1", "2"} {
		say("start " + i)
		say("value " + i + ` {"$go":["int",0]}`)
		say("end " + i + " returned null")
	}
	say("done")
	os.Exit(0)
	return 0
}
