#!/usr/bin/env bash
# Parser/printer benchmark on the largest corpus file, with ptxas for scale.
#
#   tools/bench/bench.sh [FILE] [REPEAT...]
#
# Builds a Release tree in build-release, runs ptxlink-bench (tools/bench/bench.c)
# on FILE (default: the largest .ptx under corpus/ptx) with the given repeat
# factors (default 1 8 64), then times whole ptxlink processes on the same
# file (parse+print alone, the default stages, the stages without
# addrprep: BENCH_RUNS runs each, best and median) and
# `ptxas -arch=<its .target> -c`.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-release
export PATH=/usr/local/cuda/bin:$PATH

file=${1:-}
[ $# -gt 0 ] && shift
if [ -z "$file" ]; then
	file=$(find "$root/corpus/ptx" -name '*.ptx' -type f -printf '%s\t%p\n' 2>/dev/null |
		sort -rn | head -1 | cut -f2)
	[ -n "$file" ] || { echo "bench: no .ptx files under corpus/ptx" >&2; exit 1; }
fi
[ -f "$file" ] || { echo "bench: $file: no such file" >&2; exit 1; }

mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$build/build.log" 2>&1 &&
	cmake --build "$build" -j"$(nproc)" --target ptxlink ptxlink-bench >>"$build/build.log" 2>&1 || {
	tail -30 "$build/build.log" >&2
	echo "bench: build failed (log: $build/build.log)" >&2
	exit 1
}

size=$(stat -c %s "$file")
echo "file: $file ($(awk -v s="$size" 'BEGIN{printf "%.2f MB", s/1e6}'))"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$build/ptxlink-bench" "$file" "$@"
echo

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# timeit RUNS LABEL COMMAND...: the best and the median wall time of RUNS
# runs, MB/s of each, and the largest peak RSS.  This machine's speed
# drifts by a third from run to run (a shared host), so one run says little.
timeit() {
	local runs=$1 label=$2 t rss
	shift 2
	: >"$tmp/times"
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
			echo "| $label | failed: $(head -2 "$tmp/err" | tr '\n' ' ') | | | | |"; return; }
		cat "$tmp/time" >>"$tmp/times"
	done
	sort -n "$tmp/times" | awk -v l="$label" -v s="$size" '
		{ t[NR] = $1; if ($2 > rss) rss = $2 }
		END {
			best = t[1]; med = t[int((NR + 1) / 2)]
			printf "| %s | %.2f | %.1f | %.2f | %.1f | %.1f (%.2fx) |\n", l, best,
				(best > 0 ? s / 1e6 / best : 0), med, (med > 0 ? s / 1e6 / med : 0),
				rss / 1024, rss * 1024 / s
		}'
}
runs=${BENCH_RUNS:-11}
echo "Whole processes, $runs runs each (BENCH_RUNS), output to /dev/null:"
echo
echo "| command (same file) | best s | MB/s | median s | MB/s | peak RSS MB (x input) |"
echo "|---|--:|--:|--:|--:|--:|"
timeit "$runs" "parse+print: ptxlink --no-stages FILE" "$build/ptxlink" --no-stages "$file" -o /dev/null
timeit "$runs" "default stages: ptxlink FILE" "$build/ptxlink" "$file" -o /dev/null
timeit "$runs" "ptxlink --no-addrprep FILE" "$build/ptxlink" --no-addrprep "$file" -o /dev/null
arch=$(awk '/^[ \t]*\.target/{gsub(/[,;]/," ");print $2;exit}' "$file")
if command -v ptxas >/dev/null && [ -n "$arch" ]; then
	timeit 1 "ptxas -arch=$arch -c (1 run)" ptxas -arch="$arch" -c "$file" -o "$tmp/out.cubin"
else
	echo "| ptxas | not found (or no .target in the file) | | | | |"
fi
