//go:build linux

// Package p is documented.
package p

/*
#include <stdio.h>
*/
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
