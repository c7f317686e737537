// expect: timeout
// why: sleeps an hour (time.Sleep, Go's scheduler waiting in poll_oneoff) before answering; virtual time passes the time limit at once, so the run ends as a deterministic virtual_time timeout instead of holding a worker
package main

import (
	"fmt"
	"time"
)

func main() {
	time.Sleep(time.Hour)
	var x int
	fmt.Scan(&x)
	fmt.Println(2 * x)
}
