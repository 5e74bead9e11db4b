#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Attach/detach soak of flamecast-cli record against tests/targets/soak.c.
#   soak.sh CLI TARGET CYCLES KILLS RECORD_SECONDS
# 1. CYCLES short recordings of a target that churns threads, forks and execs,
#    takes SIGUSR1 and job-control stops (some while being recorded); after each,
#    no task of it may be stopped or traced (/proc/PID/task/*/status).
# 2. KILLS recordings SIGKILLed at a random instant mid-sample: the target must
#    keep running, untraced and unstopped.
# 3. RECORD_SECONDS of recording a 50-thread target, printing the recorder's
#    RSS every 30 s (runs beside 1 and 2). 0 skips it.
# The target must then end with its "soak ok" line. `make soak` runs
# 1000 200 600; the test suite a short version.
set -euo pipefail

cli=$1 target=$2 cycles=$3 kills=$4 record_s=$5
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "not ok - $*"; exit 1; }

# Every task of $1 neither stopped (T, t) nor traced.
check_clean() {
  local pid=$1 what=$2 status state tracer
  kill -0 "$pid" 2>/dev/null || fail "$what: the target is gone"
  for status in /proc/"$pid"/task/*/status; do
    # Churned threads come and go between the glob and the read.
    read -r state tracer < <(awk '/^State:/{s=$2} /^TracerPid:/{t=$2} END{print s, t}' "$status" 2>/dev/null) || continue
    [ -n "$state" ] || continue
    [ "$tracer" = 0 ] || fail "$what: ${status%/status} still traced by $tracer"
    case $state in T|t) fail "$what: ${status%/status} left stopped ($state)";; esac
  done
}

start_target() {
  local n=$1 out=$2
  "$target" "$n" >"$out" &
  pids+=($!)
  for _ in $(seq 100); do grep -q ready "$out" 2>/dev/null && break; sleep 0.1; done
  grep -q ready "$out" || fail "the target did not start"
}

end_target() {
  local pid=$1 out=$2
  kill -TERM "$pid"
  wait "$pid" || fail "the target exited with $?"
  grep -q '^soak ok' "$out" || fail "the target did not finish with its expected output: $(cat "$out")"
  echo "# $(grep '^soak ok' "$out")"
}

rss_kib() { awk '/^VmRSS:/{print $2}' /proc/"$1"/status 2>/dev/null || echo 0; }

# 3: memory of a long recording, in the background.
if [ "$record_s" != 0 ]; then
  start_target 50 "$work/big.out"
  big=${pids[-1]}
  "$cli" record --pid "$big" -d "$record_s" -o "$work/big" >"$work/big.log" 2>&1 &
  recorder=$!
  (
    t=0
    while kill -0 "$recorder" 2>/dev/null; do
      echo "# rss t=${t}s $(rss_kib "$recorder") KiB" | tee /dev/stderr
      sleep 30; t=$((t + 30))
    done
  ) >"$work/rss.log" &
  rss_logger=$!
fi

# 1: attach/detach cycles.
start_target 4 "$work/small.out"
small=${pids[-1]}
start=$(date +%s)
for i in $(seq "$cycles"); do
  kill -USR1 "$small"
  helper=
  if [ $((i % 3)) = 0 ]; then
    # Stopped by job control while being recorded, continued midway.
    kill -STOP "$small"
    ( sleep 0.05; kill -CONT "$small" ) &
    helper=$!
  fi
  timeout 60 "$cli" record --pid "$small" -d 0.1 -o "$work/rec" >"$work/rec.log" 2>&1 ||
    fail "cycle $i: record failed: $(tail -3 "$work/rec.log")"
  [ -z "$helper" ] || wait "$helper"
  rm -rf "$work/rec"
  check_clean "$small" "cycle $i"
  [ $((i % 100)) != 0 ] || echo "# $i cycles, $(( $(date +%s) - start )) s"
done
echo "ok - $cycles attach/detach cycles in $(( $(date +%s) - start )) s, target clean after each"

# 2: the profiler SIGKILLed mid-sample.
start=$(date +%s)
for i in $(seq "$kills"); do
  "$cli" record --pid "$small" -o "$work/kill" >/dev/null 2>&1 &
  rec=$!
  sleep "0.$(printf '%03d' $((RANDOM % 400 + 50)))"
  kill -KILL "$rec" 2>/dev/null || true
  wait "$rec" 2>/dev/null || true
  # The kernel detaches a dead tracer's tracees; give it a moment to.
  sleep 0.05
  check_clean "$small" "kill $i"
  rm -rf "$work/kill"
done
echo "ok - profiler SIGKILLed $kills times mid-sample in $(( $(date +%s) - start )) s, target running and clean"
end_target "$small" "$work/small.out"

if [ "$record_s" != 0 ]; then
  wait "$recorder" || fail "the long recording failed: $(tail -3 "$work/big.log")"
  wait "$rss_logger" || true
  check_clean "$big" "after the long recording"
  end_target "$big" "$work/big.out"
  cat "$work/rss.log"
  echo "ok - ${record_s} s of a 50-thread target, $(ls "$work/big" | wc -l) chunk files"
fi
