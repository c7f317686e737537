// expect: memory_limit
// why: keeps allocating 16 MiB blocks it never frees, touching a byte of every page; the sandbox's memory limit refuses to grow linear memory past it (Go's runtime then dies with "out of memory")
package main

var blocks [][]byte

func main() {
	for {
		block := make([]byte, 16<<20)
		for i := 0; i < len(block); i += 4096 {
			block[i] = byte(i)
		}
		blocks = append(blocks, block)
	}
}
