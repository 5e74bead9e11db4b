// SPDX-License-Identifier: GPL-3.0-or-later
// split.go - a Go program whose time splits 70/30 between two functions, by construction:
// fcHot and fcCold run the same loop (only their first value differs), 7 iterations of fcHot
// for 3 of fcCold, in turns of tens of milliseconds. Prints "ready". Argument: seconds to run
// (default 5; 0: until killed).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

//go:noinline
func fcHot(n int) int {
	x := 0
	for i := 0; i < n; i++ {
		x = (x*31 + i) & 0xffff
	}
	return x
}

//go:noinline
func fcCold(n int) int {
	x := 1
	for i := 0; i < n; i++ {
		x = (x*31 + i) & 0xffff
	}
	return x
}

func main() {
	seconds := 5.0
	if len(os.Args) > 1 {
		seconds, _ = strconv.ParseFloat(os.Args[1], 64)
	}
	fmt.Println("ready")
	end := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	sink := 0
	for seconds == 0 || time.Now().Before(end) {
		sink += fcHot(70000000)
		sink += fcCold(30000000)
	}
	if sink == 42 {
		fmt.Println(sink)
	}
}
