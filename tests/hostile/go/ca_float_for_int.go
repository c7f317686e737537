// expect: wrong_answer
// why: returns the right sums as float64 through an interface{} (the test compiles: testify's Equal takes interface{}); testify's ObjectsAreEqual is reflect.DeepEqual, for which 3 and 3.0 differ, and the typed values the host compares differ too
package main

func Add(a, b int) interface{} {
	return float64(a + b)
}
