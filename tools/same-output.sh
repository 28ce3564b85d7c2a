#!/usr/bin/env bash
# Did a refactor change what ptxlink writes?  Runs two ptxlink binaries on
# the same inputs at the same options and compares every byte they write:
# the PTX, and the messages (remarks of every stage, --stats, warnings).
#
#   tools/same-output.sh [--gen N] [--cuda N] [--variants "V..."] OLD NEW
#
# Inputs: every corpus/ptx file, each multi-file program directory linked
# as one, N generated PTX programs (tests/difftest/gen-ptx.py, every
# feature, seeds 1..N, default 60) and N generated CUDA programs
# (tests/difftest/gen-calls.py seeds 1..N, default 6, built by nvcc
# -rdc=true at -O3 and at -G; skipped without nvcc).  Options: each of
# tests/difftest/difftest-lib.sh's variants (default: all of them), each
# with every remark and --stats.  Prints the runs compared and each one
# that differs (the command, and a diff's first lines); exits 1 if any.
# Not in CI: a check by hand before and after moving code (issue 32).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gen=60 cuda=6 variants=
while [ $# -gt 2 ]; do
	case $1 in
	--gen) gen=$2; shift ;;
	--cuda) cuda=$2; shift ;;
	--variants) variants=$2; shift ;;
	*) echo "same-output: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ $# = 2 ] || { sed -n '2,16p' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
[ -n "$variants" ] || variants=$DIFFTEST_VARIANTS
remarks=$("$new" --help 2>&1 | grep -o -- "-R[a-z-]*=[a-z]*" | sort -u | tr '\n' ' ')
remarks="$remarks --stats"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the inputs: one line each, the files of one link
inputs=$tmp/inputs
: > "$inputs"
for f in "$ROOT"/corpus/ptx/*.ptx "$ROOT"/corpus/ptx/handwritten/*.ptx; do echo "$f"; done >> "$inputs"
for d in "$ROOT"/corpus/ptx/*/; do
	case $d in */handwritten/) continue ;; esac
	echo "$d"*.ptx
done >> "$inputs"
for s in $(seq 1 "$gen"); do
	python3 "$ROOT/tests/difftest/gen-ptx.py" "$s" --features=all -o "$tmp/gen-$s" > /dev/null || exit 2
	echo "$tmp/gen-$s"/*.ptx
done >> "$inputs"
if command -v nvcc > /dev/null; then
	for s in $(seq 1 "$cuda"); do
		d=$tmp/cuda-$s
		python3 "$ROOT/tests/difftest/gen-calls.py" "$s" -o "$d/src" > /dev/null || exit 2
		for opt in -O3 -G; do
			mkdir -p "$d/$opt"
			for f in "$d"/src/f[0-9]*.cu; do
				(cd "$d/src" && nvcc -arch=sm_80 -rdc=true --ptx "$opt" -w "$(basename "$f")" \
					-o "../$opt/$(basename "$f" .cu).ptx") || exit 2
			done
			echo "$d/$opt"/*.ptx
		done
	done >> "$inputs"
else
	echo "same-output: no nvcc: generated CUDA programs skipped"
fi

# run BIN OUT FLAGS FILES...: OUT.ptx, OUT.err and OUT.rc
run() {
	local bin=$1 out=$2 flags=$3 arch
	shift 3
	arch=$(sed -n 's/^[[:space:]]*\.target[[:space:]]\+\([a-z0-9_]*\).*/\1/p' "$1" | head -1)
	# shellcheck disable=SC2086
	(cd "$tmp" && "$bin" -arch="$arch" $flags $remarks -o "$out.ptx" "$@" > "$out.err" 2>&1)
	echo $? > "$out.rc"
}

runs=0 differ=0 failed=0
while read -r line; do
	# shellcheck disable=SC2086
	set -- $line
	for v in $variants; do
		flags=$(difftest_vflags "$v")
		run "$old" "$tmp/a" "$flags" "$@"
		run "$new" "$tmp/b" "$flags" "$@"
		runs=$((runs + 1))
		[ "$(cat "$tmp/a.rc")" = 0 ] || failed=$((failed + 1))
		for x in ptx err rc; do
			[ -e "$tmp/a.$x" ] || : > "$tmp/a.$x"
			[ -e "$tmp/b.$x" ] || : > "$tmp/b.$x"
			if ! cmp -s "$tmp/a.$x" "$tmp/b.$x"; then
				differ=$((differ + 1))
				echo "DIFFERS ($x): ptxlink $flags $remarks ${*#$ROOT/}"
				diff "$tmp/a.$x" "$tmp/b.$x" | head -8 | sed 's/^/  /'
				break
			fi
		done
		rm -f "$tmp"/a.* "$tmp"/b.*
	done
done < "$inputs"
echo "same-output: $(wc -l < "$inputs") inputs x $(echo $variants | wc -w) option sets: $runs runs compared ($failed of them refused by both, the same way), $differ differ"
[ $differ = 0 ]
