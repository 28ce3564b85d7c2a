#!/usr/bin/env bash
# Build with AddressSanitizer + UBSan (build-asan, Debug) and run the test
# suite there.  The round trip runs without ptxas (parse/print idempotence
# only), so only our own code is exercised under the sanitizers.  Then the
# library's tests, whose sessions run on several threads at once, under
# ThreadSanitizer (build-tsan); the extra ctest args are the first run's.
#
#   tools/sanitize.sh [extra ctest args...]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
export ROUNDTRIP_NO_PTXAS=1
export SWEEP=0  # tests/devirt: the funnel-limit sweep runs in the main build only

mkdir -p "$build"
cmake -S "$root" -B "$build" -DPTXLINK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >"$build/build.log" 2>&1 &&
	cmake --build "$build" -j"$(nproc)" >>"$build/build.log" 2>&1 || {
	tail -30 "$build/build.log" >&2
	echo "sanitize: build failed (log: $build/build.log)" >&2
	echo "sanitize: 0 passed, 1 failed"
	exit 1
}
ctest --test-dir "$build" --output-on-failure "$@"
rc=$?

tsan=$root/build-tsan
mkdir -p "$tsan"
if cmake -S "$root" -B "$tsan" -DPTXLINK_TSAN=ON >"$tsan/build.log" 2>&1 &&
	cmake --build "$tsan" -j"$(nproc)" --target lib-tests lib-example ptxlink >>"$tsan/build.log" 2>&1; then
	ctest --test-dir "$tsan" --output-on-failure -R '^(lib|lib-example)$' || rc=1
else
	tail -30 "$tsan/build.log" >&2
	echo "sanitize: the ThreadSanitizer build failed (log: $tsan/build.log)" >&2
	rc=1
fi
if [ $rc = 0 ]; then echo "sanitize: 1 passed, 0 failed"; else echo "sanitize: 0 passed, 1 failed"; fi
exit $rc
