// expect: output_limit
// why: writes without end to stdout, ignoring write errors; the output budget must stop it
package main

import "os"

func main() {
	line := []byte("flood flood flood flood flood flood flood flood flood flood flood\n")
	for {
		os.Stdout.Write(line)
	}
}
