// expect: output_limit
// why: starts goroutines without end, each blocked forever with its own stack; Go's goroutines are green threads inside the one wasm instance (wasip1 has no threads), so no host thread is created and their stacks fill linear memory up to the sandbox's limit; Go's runtime then dies with "fatal error: out of memory" and prints the stack of every goroutine (a runtime throw always does, whatever GOTRACEBACK says), tens of thousands of them, which the output limit stops
package main

func main() {
	block := make(chan struct{})
	for {
		go func() {
			var pad [1024]byte
			pad[0] = 1
			<-block
			_ = pad
		}()
	}
}
