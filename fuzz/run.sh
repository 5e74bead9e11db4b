#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs libFuzzer harnesses built in BUILDDIR (make fuzz) for SECONDS each.
#   fuzz/run.sh BUILDDIR SECONDS HARNESS...
# New inputs go to BUILDDIR/corpus/HARNESS (scratch); the seeds in the tree are
# read, never written. A crash is saved as BUILDDIR/crashes/HARNESS-crash-*:
# fix it, then copy it into fuzz/crashes/HARNESS/ so that every later run
# (and the 'fuzz' test suite) replays it. `make fuzz-merge` folds the scratch
# corpus, minimized, back into fuzz/corpus/.
# FUZZ_SEED fixes libFuzzer's seed (make check-fuzz: the same mutations each run).
# Ends with one line per harness: executions, coverage (cov/ft) and corpus size.
set -euo pipefail

builddir=$1 seconds=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
summary=()
status=0

for h in "$@"; do
  seeds=("$src/fuzz/corpus/$h" "$src/fuzz/crashes/$h")
  case $h in
    fuzz-reader|fuzz-payload|fuzz-envelope|fuzz-gzip) seeds+=("$src/tests/data") ;;
  esac
  # nesting and the readers' keys for the JSON harnesses (fuzz/json.dict)
  dict=()
  case $h in
    fuzz-reader|fuzz-payload|fuzz-envelope|fuzz-otlp-json|fuzz-speedscope) dict=(-dict="$src/fuzz/json.dict") ;;
  esac
  mkdir -p "$builddir/corpus/$h" "$builddir/crashes"
  # The outbox and rate-limit harnesses write files for every input: keep them in memory.
  [ -d /dev/shm ] && export TMPDIR=/dev/shm
  log="$builddir/fuzz-$h.log"
  echo "== $h: ${seconds}s"
  # -rss_limit_mb: a payload that blows up memory is a bug too (2 GiB, like OSS-Fuzz).
  if ! ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
       "$builddir/fuzz/$h" -max_total_time="$seconds" ${FUZZ_SEED:+-seed=$FUZZ_SEED} -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
         "${dict[@]}" \
         -artifact_prefix="$builddir/crashes/$h-" "$builddir/corpus/$h" "${seeds[@]}" >"$log" 2>&1; then
    tail -40 "$log"
    echo "$h: FAILED, see $log"
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
  summary+=("$h: ${execs:-?} executions, ${cov:-no coverage line}")
done

printf '%s\n' "${summary[@]}"
exit $status
