//go:build linux
// +build linux

// Copyright header, separated by a blank line: not documentation,
// however many lines it has: the blank line ends the comment group.

// Package p is documented.
package p

/*
#include <stdio.h>
*/
import "C"

// The cgo preamble is C code, kept whole at every level:
//
// #include <math.h>
// static int twice(int x) { return 2 * x; }
import "C"

import (
	"fmt" // trailing
)

// Doc for T.
type T struct {
	// A is a field.
	A int // trailing field comment


	B string
}

const raw = `// not a comment

/* nor this */`

// Loose comment, blank line below: not a doc comment.

// Add adds.
func Add(a, b int) int {
	// inside
	return a + b
}

func (t *T) M() {
	f := func() {
		fmt.Println("/* x */")
	}
	f()
}

func one() int { return 1 }

// Documented is summarized.
// Still the summary.
//
// Details, dropped at signatures.
//
//go:noinline
func Documented() int {
	return 1 + 1
}

// RC is summarized like any doc.
type RC interface {
	// Stringer is embedded: its doc stays.
	fmt.Stringer
}

func local() int {
	// Inside a function, a comment above a declaration is not documentation.
	var n = 1
	return n
}

//sys	getpid() (pid int)

func ExampleAdd() {
	// An ordinary comment: removed.
	fmt.Println(Add(1, 2))
	// Output:
	// 3
}
