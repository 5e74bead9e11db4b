// SPDX-License-Identifier: GPL-3.0-or-later
// split.js - a Node program whose time splits 70/30 between two functions, by construction:
// fcHot and fcCold run the same loop (only their first value differs), 7 iterations of fcHot for 3 of fcCold, in turns of tens
// of milliseconds. Prints "ready" once warmed up. Argument: seconds of its own CPU time to run
// (default 5; 0: until killed), however long a loaded machine makes that: its start-up is then
// the same small share of its samples at any load. Run with --perf-basic-prof (or --perf-prof)
// for its JIT code to be named.
'use strict';

function fcHot(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 31 + i) & 0xffff;
  return x;
}

function fcCold(n) {
  let x = 1;
  for (let i = 0; i < n; i++) x = (x * 31 + i) & 0xffff;
  return x;
}

const seconds = process.argv.length > 2 ? Number(process.argv[2]) : 5;
let sink = 0;
// both optimized before the measured part starts
for (let k = 0; k < 20; k++) sink += fcHot(100000) + fcCold(100000);
console.log('ready');
// microseconds of CPU time, all of the process's threads (user and system)
function cpuNow() {
  const u = process.cpuUsage();
  return u.user + u.system;
}
const end = cpuNow() + seconds * 1e6;
while (seconds === 0 || cpuNow() < end) {
  sink += fcHot(7000000);
  sink += fcCold(3000000);
}
if (sink === 42) console.log(sink);
