//go:build linux
// +build linux

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
	"fmt"
)
// Doc for T.
type T struct {
	// A is a field.
	A int
	B string
}
const raw = `// not a comment

/* nor this */`
// Add adds.
func Add(a, b int) int { /* ... */ }
func (t *T) M() { /* ... */ }
func one() int { return 1 }
// Documented is summarized.
// Still the summary.
//go:noinline
func Documented() int { /* ... */ }
// RC is summarized like any doc.
type RC interface {
	// Stringer is embedded: its doc stays.
	fmt.Stringer
}
func local() int { /* ... */ }
//sys	getpid() (pid int)
func ExampleAdd() { /* ... */ }
