package main

// wasmeval's stand-in for the part of testify's `assert` package that HumanEval-X's Go tests use
// (`assert.New(t)`, `Equal`), compiled beside the test (whose `assert.New(` becomes
// `__wasmeval_assert_New(`) and the candidate. `Equal` follows testify's ObjectsAreEqual: byte
// slices by content, everything else by reflect.DeepEqual (so types must match, as in testify).
// A failed assertion says so on stderr and ends the program with exit code 1, so the test never
// reaches its end-of-tests line. Nothing here is the candidate's: it cannot define these names
// (a duplicate definition does not compile).

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
)

// What the test's `*testing.T` becomes: the tests only hand it to `assert.New`.
type __wasmeval_T struct{}

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

// The end-of-tests line: written only after every test function returned.
func __wasmeval_end_of_tests() {
	token := ""
	if len(os.Args) > 1 {
		token = os.Args[1]
	}
	os.Stdout.WriteString("\n" + token + " end\n")
}
