// SPDX-License-Identifier: GPL-3.0-or-later
// A real producer of pprof CPU profiles for tests/formats/test-interop.c:
// burn.go OUT writes about 0.4 s of runtime/pprof samples, most in burnFlamecast.

package main

import (
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func burnFlamecast(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	deadline := time.Now().Add(400 * time.Millisecond)
	s := 0
	for time.Now().Before(deadline) {
		s += burnFlamecast(100000)
	}
	pprof.StopCPUProfile()
	f.Close()
	if s == 42 {
		println(s)
	}
}
