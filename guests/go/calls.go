package main

// wasmeval's driver support for Go `calls` cases, a file of its own beside the candidate's, the
// driver (the test, its checks replaced by these calls) and guests/go/assert.go with main.
//
// Report lines are "\n<token> <words>\n", the token being os.Args[1]: "start <i>", then the
// value as plain data ("value <i> <json>"), then "end <i> returned null"; a panic during case i
// reports "end <i> runtime_error <json message>" before the program ends.
//
// - `__wasmeval_case(i, f)` (HumanEval-X, testify's Equal): the value f returned, in the typed
//   form of core's formats/go_values.rs: an interface value is {"$go": ["<reflect type>",
//   <value>]} (nil: null), numbers are numbers, strings strings ({"$gobytes": "<hex>"} when not
//   UTF-8), nil slices and maps null, arrays and slices arrays, maps {"$dict": [[k, v], ..]},
//   anything else (pointers, structs, funcs, channels, complex numbers) {"$go_opaque": "<type>"},
//   which no expected value equals, as reflect.DeepEqual would not equal it to a literal. Equal
//   forms are exactly DeepEqual values (NaN aside: never expected).
// - `__wasmeval_row(i, f)` then `__wasmeval_report_v(values)` (MultiPL-E): every call first, in
//   order, as the test's table evaluates them, then each value's fmt.Sprintf("%v", ..) as a
//   string.

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The case whose call is running, or -1.
var __wasmeval_running = -1

func __wasmeval_report(words string) {
	token := ""
	if len(os.Args) > 1 {
		token = os.Args[1]
	}
	os.Stdout.WriteString("\n" + token + " " + words + "\n")
}

func init() {
	__wasmeval_on_panic = func(message string) {
		if __wasmeval_running >= 0 {
			var b strings.Builder
			__wasmeval_json_string(&b, "panicked: "+message)
			__wasmeval_report("end " + strconv.Itoa(__wasmeval_running) + " runtime_error " + b.String())
		}
	}
}

func __wasmeval_call(index int, call func() interface{}) interface{} {
	__wasmeval_report("start " + strconv.Itoa(index))
	__wasmeval_running = index
	value := call()
	__wasmeval_running = -1
	return value
}

func __wasmeval_case(index int, call func() interface{}) {
	value := __wasmeval_call(index, call)
	var b strings.Builder
	__wasmeval_interface(&b, reflect.ValueOf(value), 0)
	__wasmeval_report("value " + strconv.Itoa(index) + " " + b.String())
	__wasmeval_report("end " + strconv.Itoa(index) + " returned null")
}

func __wasmeval_row(index int, call func() interface{}) interface{} {
	return __wasmeval_call(index, call)
}

func __wasmeval_report_v(values []interface{}) {
	for i, value := range values {
		__wasmeval_report("start " + strconv.Itoa(i))
		__wasmeval_running = i
		printed := fmt.Sprintf("%v", value)
		__wasmeval_running = -1
		var b strings.Builder
		__wasmeval_string(&b, printed)
		__wasmeval_report("value " + strconv.Itoa(i) + " " + b.String())
		__wasmeval_report("end " + strconv.Itoa(i) + " returned null")
	}
}

// An interface's value: null when nil, else its dynamic type and value.
func __wasmeval_interface(b *strings.Builder, v reflect.Value, depth int) {
	if !v.IsValid() {
		b.WriteString("null")
		return
	}
	b.WriteString(`{"$go":[`)
	__wasmeval_json_string(b, v.Type().String())
	b.WriteByte(',')
	__wasmeval_value(b, v, depth+1)
	b.WriteString("]}")
}

func __wasmeval_value(b *strings.Builder, v reflect.Value, depth int) {
	opaque := func() {
		b.WriteString(`{"$go_opaque":`)
		__wasmeval_json_string(b, v.Type().String())
		b.WriteByte('}')
	}
	// A value nested this deep (or a cycle) is no literal's.
	if depth > 100 {
		opaque()
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			b.WriteString(`{"$float":"nan"}`)
		case math.IsInf(f, 1):
			b.WriteString(`{"$float":"inf"}`)
		case math.IsInf(f, -1):
			b.WriteString(`{"$float":"-inf"}`)
		default:
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case reflect.String:
		__wasmeval_string(b, v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			__wasmeval_value(b, v.Index(i), depth+1)
		}
		b.WriteByte(']')
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteString(`{"$dict":[`)
		for i, entries := 0, v.MapRange(); entries.Next(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			__wasmeval_value(b, entries.Key(), depth+1)
			b.WriteByte(',')
			__wasmeval_value(b, entries.Value(), depth+1)
			b.WriteByte(']')
		}
		b.WriteString("]}")
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		__wasmeval_interface(b, v.Elem(), depth)
	default:
		opaque()
	}
}

// A Go string: a JSON string when it is UTF-8, else its bytes in hexadecimal.
func __wasmeval_string(b *strings.Builder, s string) {
	if utf8.ValidString(s) {
		__wasmeval_json_string(b, s)
		return
	}
	b.WriteString(`{"$gobytes":"`)
	for i := 0; i < len(s); i++ {
		b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
		b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
	}
	b.WriteString(`"}`)
}

// A UTF-8 string as a JSON string.
func __wasmeval_json_string(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(strconv.FormatUint(uint64(r)>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(r)&15, 16))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
