// expect: compile_error
// why: cgo would run the host's C compiler on the preamble (and #include host headers); the build has CGO_ENABLED=0, so import "C" is an error and no C compiler starts
package main

/*
#include "/etc/passwd"
*/
import "C"

func main() {}
