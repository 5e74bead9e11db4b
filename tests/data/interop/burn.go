// SPDX-License-Identifier: GPL-3.0-or-later
// A real producer of pprof CPU profiles for tests/formats/test-interop.c:
// burn.go OUT writes about 0.4 s of runtime/pprof samples, most in burnFlamecast: 0.4 s of its
// own CPU time, not of the clock, so that a loaded machine still gives ~40 samples.

package main

import (
	"os"
	"runtime/pprof"
	"syscall"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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
	until := cpuTime() + 400*time.Millisecond
	deadline := time.Now().Add(20 * time.Second)
	s := 0
	for cpuTime() < until && time.Now().Before(deadline) {
		s += burnFlamecast(100000)
	}
	pprof.StopCPUProfile()
	f.Close()
	if s == 42 {
		println(s)
	}
}
