// SPDX-License-Identifier: GPL-3.0-or-later
// split.rs - a Rust program whose time splits 70/30 between two functions, by construction:
// fc_hot and fc_cold run the same loop (only their first value differs), 7 iterations of
// fc_hot for 3 of fc_cold, in turns of tens of milliseconds. Both are methods of a generic
// type, so their legacy-mangled names carry $LT$ escapes and closures. Prints "ready".
// Argument: seconds to run (default 5; 0: until killed).
use std::hint::black_box;
use std::time::{Duration, Instant};

struct Worker<T> {
    seed: T,
}

impl<T: Copy + Into<u64>> Worker<T> {
    #[inline(never)]
    fn fc_hot(&self, n: u64) -> u64 {
        let mut x: u64 = 0;
        for i in 0..n {
            x = (black_box(x) * 31 + i) & 0xffff;
        }
        x + self.seed.into()
    }

    #[inline(never)]
    fn fc_cold(&self, n: u64) -> u64 {
        let mut x: u64 = 1;
        for i in 0..n {
            x = (black_box(x) * 31 + i) & 0xffff;
        }
        x + self.seed.into()
    }
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).map(|a| a.parse().unwrap_or(5.0)).unwrap_or(5.0);
    let worker = Worker { seed: 1u32 };
    let run = || {
        println!("ready");
        let end = Instant::now() + Duration::from_secs_f64(seconds);
        let mut sink = 0u64;
        while seconds == 0.0 || Instant::now() < end {
            sink = sink.wrapping_add(worker.fc_hot(70_000_000));
            sink = sink.wrapping_add(worker.fc_cold(30_000_000));
        }
        sink
    };
    if run() == 42 {
        println!("42");
    }
}
