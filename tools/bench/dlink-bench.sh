#!/usr/bin/env bash
# ptxlink -dlink against nvcc -dlink (issue 34) on every multi-file corpus
# program: each source compiled with nvcc -dc at
# code=[compute_80,sm_80], then the device-link object made both ways;
# the embedded sm_80 cubin's .text bytes and whole size (read by
# ptxlink-objects: no cuobjdump here), and whether ptxlink's object
# defines the same __cudaRegisterLinkedBinary_ symbols.  Prints a
# Markdown table and the totals; exits 1 if a .text grew or a
# registration differs.
#
#   tools/bench/dlink-bench.sh [build-dir] [corpus-dir]     (default build, corpus)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${1:-build}
CORPUS=${2:-corpus}
export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null || { echo "SKIPPED: nvcc not found"; exit 77; }
[ -x "$BUILD/ptxlink" ] || { echo "dlink-bench: build $BUILD/ptxlink first" >&2; exit 2; }
link=$(cd "$BUILD" && pwd)/ptxlink list=$(cd "$BUILD" && pwd)/ptxlink-objects
src=$(cd "$CORPUS/src" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


echo "| program | .text nvcc -dlink | .text ptxlink -dlink | cubin nvcc | cubin ptxlink | registration |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
bad=0 tn=0 tp=0
for dir in "$src"/*/; do
	p=$(basename "$dir")
	ls "$dir"*.cu >/dev/null 2>&1 || continue
	w=$tmp/$p
	mkdir -p "$w/xn" "$w/xp"
	ok=1
	for f in "$dir"*.cu; do
		nvcc -dc -gencode 'arch=compute_80,code=[compute_80,sm_80]' -I"$dir" "$f" \
			-o "$w/$(basename "$f" .cu).o" 2>/dev/null || ok=0
	done
	objs=$(ls "$w"/*.o 2>/dev/null)
	[ $ok = 1 ] && nvcc -dlink -arch=sm_80 $objs -o "$w/nv.dl" 2>/dev/null || { echo "| $p | nvcc fails | | | | |"; continue; }
	"$link" -dlink -arch=sm_80 $objs -o "$w/pl.dl" 2>/dev/null || { echo "| $p | | ptxlink fails | | | |"; bad=1; continue; }
	"$list" -x "$w/xn" "$w/nv.dl" >/dev/null && "$list" -x "$w/xp" "$w/pl.dl" >/dev/null
	n=$(cubin_text "$w/xn/0.sm_80.cubin") l=$(cubin_text "$w/xp/0.sm_80.cubin")
	same=same
	[ "$(dlink_registered "$w/pl.dl")" = "$(dlink_registered "$w/nv.dl")" ] || { same=DIFFERS; bad=1; }
	[ "$l" -le "$n" ] || bad=1
	tn=$((tn + n)) tp=$((tp + l))
	echo "| $p | $n | $l | $(stat -c %s "$w/xn/0.sm_80.cubin") | $(stat -c %s "$w/xp/0.sm_80.cubin") | $same |"
done
echo
echo "total .text: nvcc -dlink $tn, ptxlink -dlink $tp"
exit $bad
