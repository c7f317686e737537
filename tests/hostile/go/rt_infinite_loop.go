// expect: timeout
// why: loops forever at run time without printing; the instruction budget (fuel) must stop it
package main

var sink int

func main() {
	for i := 0; ; i++ {
		sink += i
	}
}
