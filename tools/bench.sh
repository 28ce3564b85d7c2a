#!/usr/bin/env bash
# Parser/printer benchmark on the largest corpus file, with ptxas for scale.
#
#   tools/bench.sh [FILE] [REPEAT...]
#
# Builds a Release tree in build-release, runs ptxlink-bench (tools/bench.c)
# on FILE (default: the largest .ptx under corpus/ptx) with the given repeat
# factors (default 1 8 64), then times the ptxlink CLI and
# `ptxas -arch=<its .target> -c` on the same file.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
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
timeit() { # runs label command...: best wall time of 'runs' runs, and peak RSS
	local runs=$1 best= rss= t
	shift
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "${@:2}" >/dev/null 2>"$tmp/err" || {
			echo "| $1 | failed: $(head -2 "$tmp/err" | tr '\n' ' ') | |"; return; }
		read -r t rss <"$tmp/time"
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
	done
	awk -v l="$1" -v t="$best" -v r="$rss" -v s="$size" \
		'BEGIN{printf "| %s | %.2f | %.1f | %.1f |\n", l, t, (t>0? s/1e6/t : 0), r/1024}'
}
echo "| command (same file) | wall s (best run) | MB/s | peak RSS MB |"
echo "|---|--:|--:|--:|"
timeit 3 "ptxlink FILE -o /dev/null (best of 3)" "$build/ptxlink" "$file" -o /dev/null
arch=$(awk '/^[ \t]*\.target/{gsub(/[,;]/," ");print $2;exit}' "$file")
if command -v ptxas >/dev/null && [ -n "$arch" ]; then
	timeit 1 "ptxas -arch=$arch -c (1 run)" ptxas -arch="$arch" -c "$file" -o "$tmp/out.cubin"
else
	echo "| ptxas | not found (or no .target in the file) | | |"
fi
