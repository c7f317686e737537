package main

// wasmeval's stand-ins for what Go tests use of `testing` and testify's `assert`, compiled as the
// last file of a Go test program, beside the candidate's file and the test's (whose
// `*testing.T` becomes `*__wasmeval_T` and `assert.New(` becomes `__wasmeval_assert_New(`).
//
// - `__wasmeval_T` is the part of `*testing.T` tests use (MultiPL-E's: `Run`, `Errorf`; also
//   `Error`, `Fatal(f)`, `Fail(Now)`, `Log(f)`, `Skip(f)`, `Helper`, `Cleanup`, ...). As in
//   `go test`, each test and subtest runs in a goroutine of its own; `FailNow` ends it with
//   runtime.Goexit; a test that ends by runtime.Goexit without FailNow fails, and a panic ends
//   the program (exit code 2, `panic: ` on stderr). A failure is written to stderr as an
//   `assertion failed: <test>: <message>` line.
// - `Equal` follows testify's ObjectsAreEqual: byte slices by content, everything else by
//   reflect.DeepEqual (so types must match, as in testify). A failed assertion says so on
//   stderr and ends the program with exit code 1.
// - The end-of-tests line is written by wasmeval's `main` itself (core's `judging/compiled.rs`
//   generates it after this file), only when none of the tests it ran failed, which it counts in
//   a local variable. Why no function here writes it or keeps that count (issue 32): the
//   candidate is in the same package, so an `init` (or the function under test) could call such
//   a function, or clear such a variable, and then exit 0; `main` is callable too, but only runs
//   every test again.
//
// Nothing here is the candidate's: it cannot define these names (a duplicate definition does
// not compile).

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
)

// Checks, at compile time, that the predeclared names this file and the test's verdict depend on
// are Go's own: the candidate is in the same package and may redeclare any of them at package
// level, which hides Go's for every file of it. With `const true = false`, `t.Fail()` recorded
// no failure and a failed t.Errorf test passed; a `len`, `append` or `panic` of its own would
// change what the test computes (issue 32: the test's names are not the candidate's to bind).
// Each line compiles only with Go's identifier, so such a candidate is a compile error naming
// this file. (Not checked, because honest programs define them: `min`, `max`, `copy`, `clear`.)
const _, _ = true, false

var _ = map[bool]int{true: 0, 0 != 0: 1}  // a duplicate key unless true is true
var _ = map[bool]int{false: 0, 0 == 0: 1} // and false false
var _, _, _ = (func())(nil), (map[int]int)(nil), (*int)(nil)

const _ = len("ab") + cap([1]int{}) // constant only for Go's len and cap

var _ = append([]byte{}, "ab"...) // a string spread into bytes: Go's append only
var _ = func() int { panic(0) }   // no missing return: Go's panic only

// What the test's `*testing.T` becomes.
type __wasmeval_T struct {
	name     string
	parent   *__wasmeval_T
	failed   bool
	skipped  bool
	finished bool
	cleanups []func()
}

func (t *__wasmeval_T) Name() string   { return t.name }
func (t *__wasmeval_T) Helper()        {}
func (t *__wasmeval_T) Parallel()      {}
func (t *__wasmeval_T) Failed() bool   { return t.failed }
func (t *__wasmeval_T) Skipped() bool  { return t.skipped }
func (t *__wasmeval_T) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }

func (t *__wasmeval_T) Fail() {
	for at := t; at != nil; at = at.parent {
		at.failed = true
	}
}

func (t *__wasmeval_T) FailNow() {
	t.Fail()
	t.finished = true
	runtime.Goexit()
}

func (t *__wasmeval_T) Log(args ...interface{}) { fmt.Fprint(os.Stderr, fmt.Sprintln(args...)) }
func (t *__wasmeval_T) Logf(format string, args ...interface{}) {
	fmt.Fprintln(os.Stderr, fmt.Sprintf(format, args...))
}

func (t *__wasmeval_T) failure(message string) {
	fmt.Fprintf(os.Stderr, "assertion failed: %s: %s\n", t.name, strings.TrimSuffix(message, "\n"))
	t.Fail()
}

func (t *__wasmeval_T) Error(args ...interface{}) { t.failure(fmt.Sprintln(args...)) }
func (t *__wasmeval_T) Errorf(format string, args ...interface{}) {
	t.failure(fmt.Sprintf(format, args...))
}
func (t *__wasmeval_T) Fatal(args ...interface{}) { t.failure(fmt.Sprintln(args...)); t.FailNow() }
func (t *__wasmeval_T) Fatalf(format string, args ...interface{}) {
	t.failure(fmt.Sprintf(format, args...))
	t.FailNow()
}

func (t *__wasmeval_T) SkipNow() {
	t.skipped = true
	t.finished = true
	runtime.Goexit()
}
func (t *__wasmeval_T) Skip(args ...interface{}) { t.Log(args...); t.SkipNow() }
func (t *__wasmeval_T) Skipf(format string, args ...interface{}) {
	t.Logf(format, args...)
	t.SkipNow()
}

// Run runs a subtest in a goroutine of its own and waits for it, as testing.T.Run does.
func (t *__wasmeval_T) Run(name string, f func(t *__wasmeval_T)) bool {
	sub := &__wasmeval_T{name: t.name + "/" + strings.ReplaceAll(name, " ", "_"), parent: t}
	__wasmeval_run(sub, f)
	return !sub.failed
}

// What a panic ends the program with, after __wasmeval_on_panic (the calls driver's report).
var __wasmeval_on_panic = func(message string) {}

// __wasmeval_run runs f(t) in a goroutine and waits for its end. A panic ends the program at
// once (main must not go on while it unwinds); a runtime.Goexit that was not FailNow or SkipNow
// fails the test, as in `go test`.
func __wasmeval_run(t *__wasmeval_T, f func(*__wasmeval_T)) {
	done := make(chan struct{})
	go func() {
		defer func() {
			if r := recover(); r != nil {
				message := fmt.Sprint(r)
				if err, ok := r.(error); ok {
					message = err.Error()
				}
				__wasmeval_on_panic(message)
				fmt.Fprintf(os.Stderr, "panic: %s\n", message)
				os.Exit(2)
			}
			for i := len(t.cleanups) - 1; i >= 0; i-- {
				t.cleanups[i]()
			}
			close(done)
		}()
		f(t)
		t.finished = true
	}()
	<-done
	if !t.finished {
		fmt.Fprintf(os.Stderr, "%s: test executed panic(nil) or runtime.Goexit\n", t.name)
		t.Fail()
	}
}

// __wasmeval_run_test runs one Test function, as main calls it, and says whether it failed.
func __wasmeval_run_test(name string, f func(*__wasmeval_T)) bool {
	t := &__wasmeval_T{name: name}
	__wasmeval_run(t, f)
	return t.failed
}

type __wasmeval_Assertions struct{}

func __wasmeval_assert_New(t *__wasmeval_T) *__wasmeval_Assertions {
	return &__wasmeval_Assertions{}
}

func __wasmeval_objects_are_equal(expected, actual interface{}) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	exp, ok := expected.([]byte)
	if !ok {
		return reflect.DeepEqual(expected, actual)
	}
	act, ok := actual.([]byte)
	if !ok {
		return false
	}
	if exp == nil || act == nil {
		return exp == nil && act == nil
	}
	return bytes.Equal(exp, act)
}

func (a *__wasmeval_Assertions) Equal(expected, actual interface{}, msgAndArgs ...interface{}) bool {
	if __wasmeval_objects_are_equal(expected, actual) {
		return true
	}
	fmt.Fprintf(os.Stderr, "assertion failed: Equal: expected %#v (%T), actual %#v (%T)\n",
		expected, expected, actual, actual)
	os.Exit(1)
	return false
}

func (a *__wasmeval_Assertions) NotEqual(expected, actual interface{}, msgAndArgs ...interface{}) bool {
	if !__wasmeval_objects_are_equal(expected, actual) {
		return true
	}
	fmt.Fprintf(os.Stderr, "assertion failed: NotEqual: both %#v (%T)\n", actual, actual)
	os.Exit(1)
	return false
}

func (a *__wasmeval_Assertions) True(value bool, msgAndArgs ...interface{}) bool {
	if value {
		return true
	}
	fmt.Fprintln(os.Stderr, "assertion failed: True: got false")
	os.Exit(1)
	return false
}

func (a *__wasmeval_Assertions) False(value bool, msgAndArgs ...interface{}) bool {
	if !value {
		return true
	}
	fmt.Fprintln(os.Stderr, "assertion failed: False: got true")
	os.Exit(1)
	return false
}
