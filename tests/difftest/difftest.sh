#!/usr/bin/env bash
# Runs one kernel from two PTX modules (say, before and after a
# transformation) on the same inputs and compares what they leave behind
# byte for byte: the printf stream and every buffer's full contents.
# The printf stream is compared grouped by thread (--printf-by-thread):
# CUDA orders one thread's output but not the interleaving of threads,
# which a transformation may change by reordering divergent paths.
#
#   tests/difftest/difftest.sh A.ptx B.ptx kernel [ptxlink-run options...]
#
# Exit status: 0 the same; 1 different (a diff is printed); 77 both runs
# stopped the same way before completing, so nothing was compared; 2 a
# usage error.  PTXLINK_RUN names the interpreter (default
# build/ptxlink-run beside this script's repository).
set -uo pipefail
if [ $# -lt 3 ]; then
	echo "usage: difftest.sh A.ptx B.ptx kernel [ptxlink-run options...]" >&2
	exit 2
fi
RUN=${PTXLINK_RUN:-$(dirname "$0")/../../build/ptxlink-run}
a=$1 b=$2 k=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$RUN" "$a" "$k" --dump --printf-by-thread "$@" > "$tmp/a.out" 2> "$tmp/a.err"
ra=$?
"$RUN" "$b" "$k" --dump --printf-by-thread "$@" > "$tmp/b.out" 2> "$tmp/b.err"
rb=$?
# the messages name each file and its lines; compare what they say
strip() { sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //; s/^[^ ]*\.ptx: //' "$1"; }

if [ "$ra" -ne "$rb" ]; then
	echo "difftest: $k: exit $ra for $a, $rb for $b"
	echo "  $a: $(head -1 "$tmp/a.err")"
	echo "  $b: $(head -1 "$tmp/b.err")"
	exit 1
fi
if ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
	echo "difftest: $k: output differs"
	diff -u --label "$a" --label "$b" "$tmp/a.out" "$tmp/b.out" | head -60
	exit 1
fi
if [ "$ra" -ne 0 ]; then
	if [ "$(strip "$tmp/a.err")" != "$(strip "$tmp/b.err")" ]; then
		echo "difftest: $k: both stopped (exit $ra), differently"
		echo "  $a: $(head -1 "$tmp/a.err")"
		echo "  $b: $(head -1 "$tmp/b.err")"
		exit 1
	fi
	echo "difftest: $k: both stopped the same way (exit $ra): $(strip "$tmp/a.err" | head -1)"
	exit 77
fi
exit 0
