// expect: runtime_error
// why: reads the token from its argv and writes the driver's report lines itself, claiming every case passed, then exits 0; a calls case never takes `passed` from the guest, so the report is garbled and believed for no case; the candidate ran in the process that reported, so the garbled report is its runtime error, never a harness_error (issue 33)
package main

import "os"

func Add(a, b int) int {
	token := os.Args[1]
	for _, line := range []string{"start 0", "end 0 passed null", "start 1", "end 1 passed null", "start 2", "end 2 passed null", "done"} {
		os.Stdout.WriteString("\n" + token + " " + line + "\n")
	}
	os.Exit(0)
	return 0
}
