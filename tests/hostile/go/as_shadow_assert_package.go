// expect: wrong_answer
// why: declares a package-level `assert` with an Equal that accepts anything, hoping the test's `assert.New(t)` binds to it; the test calls wasmeval's stand-in by its own name, so the wrong Add fails
package main

import "testing"

type lenient struct{}

func (lenient) New(t *testing.T) lenient { return lenient{} }

func (lenient) Equal(expected, actual interface{}, msgAndArgs ...interface{}) bool { return true }

var assert lenient

func Add(a, b int) int {
	return 0
}
