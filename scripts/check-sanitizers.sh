#!/usr/bin/env bash
# `make check-sanitizers`: the whole test suite under AddressSanitizer, then under
# ThreadSanitizer, each in its own build folder, with the narrow suppressions of known
# toolchain false positives in scripts/sanitizers/ (each line says why). Prints each run's time.
# SANITIZERS="address" or "thread" runs one only.
#
# LeakSanitizer is off in the suite's process: what it reports at exit there is the toolchain's
# (each Foundation `Process` is kept alive by a reference cycle inside Foundation, with its
# environment and pipes; URLSession's libcurl glue leaks a parsed URL per request
# (CFURLSessionCurlHostIsEqual); XCTest keeps its suite runs) and cannot be suppressed narrowly,
# since a cycle has no direct leak to name. Leaks are checked where input drives allocation:
# `make fuzz` runs every fuzzed parser and the unpacker with LeakSanitizer on, per input.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SANITIZERS=${SANITIZERS:-address thread}
here=$(pwd)
failed=""
for sanitizer in $SANITIZERS; do
  start=$(date +%s)
  echo "check-sanitizers: $sanitizer (build path .build/$sanitizer)"
  TZ=Pacific/Auckland \
  ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
  TSAN_OPTIONS="suppressions=$here/scripts/sanitizers/thread.supp:halt_on_error=0:${TSAN_OPTIONS:-}" \
    "$SWIFT" test --sanitize="$sanitizer" --build-path ".build/$sanitizer" --parallel --experimental-maximum-parallelization-width "${TEST_WIDTH:-4}" ${SANITIZER_TEST_ARGS:-} \
    2>&1 | tee ".build/check-$sanitizer.log"
  status=${PIPESTATUS[0]}
  # A report does not always fail a test: look for one in the output as well.
  if grep -qE "^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)" ".build/check-$sanitizer.log"; then
    echo "check-sanitizers: $sanitizer reported problems (see .build/check-$sanitizer.log)"
    status=1
  fi
  echo "check-sanitizers: $sanitizer took $(( $(date +%s) - start )) s, exit $status"
  [ "$status" -eq 0 ] || failed="$failed $sanitizer"
done
[ -z "$failed" ] || { echo "check-sanitizers: failed:$failed"; exit 1; }
