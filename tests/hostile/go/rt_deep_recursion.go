// expect: memory_limit
// why: unbounded recursion with a live frame per call; Go's goroutine stacks grow by copying on the heap (up to 1 GB), so the growth reaches the sandbox's memory limit before Go's own stack limit, and never touches the host's stack
package main

func down(n int) int {
	var frame [64]int
	frame[n%64] = n
	return down(n+1) + frame[(n+1)%64]
}

func main() {
	println(down(0))
}
