#!/usr/bin/env bash
# Differential testing of ptxlink's stages on generated CUDA programs.
#
#   tests/difftest/difftest-programs.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                              [--fail-dir DIR] [--max-subclasses N] [--no-clang]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10): tests/difftest/gen-programs.py
# writes a program (1-4 .cu files, class hierarchies of 1-40 subclasses,
# virtual calls, delete, function-pointer tables, printf); nvcc compiles each
# file (-arch=sm_80 -rdc=true --ptx), and so does clang -fgpu-rdc where it
# can (a program clang does not compile is said so and run with nvcc only).
# The PTX files are linked plain (--no-stages), with the default stages, and
# with --devirt-funnel-max=1, 2 and 64 (a one-file program also as one input
# without -arch, the unlinked path), every output must pass --verify and
# whole-program ptxas, and every kernel of the manifest is run on the plain
# link and on each optimized one with tests/difftest/difftest.sh.
#
# A comparison is one kernel of one compiler's PTX, plain against one
# optimized link: 4 per kernel and compiler (5 for one file).  One where both runs stopped the
# same way (difftest.sh exit 77) is not compared.  A difference, a ptxlink
# or ptxas failure, or a program that does not compile is a failure: the
# program, its PTX, the outputs and the commands are saved in
# <fail-dir>/seed-S (default: difftest-fail beside the ptxlink binary), and
# the run goes on.  The end is
#
#   difftest-programs: P programs, K kernels compared, D differences
#   N passed, N failed
#
# (programs passing and failing), and the exit status is 1 on any failure.
# PTXLINK and PTXLINK_RUN name the binaries (default build/ptxlink and
# ptxlink-run beside it); --keep DIR keeps every program's work directory.
# Exit 77 (skipped) when nvcc or ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
maxsub=40
# --max-subclasses N: the generator's limit
difftest_option() {
	[ "$1" = --max-subclasses ] || return 0
	maxsub=$2
	return 2
}
difftest_options difftest-programs '2,31p' "$@"

difftest_setup difftest-programs difftest-fail

# The optimized links, each compared against --no-stages; a one-file
# program also as one input without -arch (not linked: an open world).
VARIANTS="default fm1 fm2 fm64"
vflags() {
	case $1 in
	plain) echo -arch=sm_80 --no-stages ;;
	default) echo -arch=sm_80 ;;
	fm*) echo "-arch=sm_80 --devirt-funnel-max=${1#fm}" ;;
	unlinked) ;;
	esac
}

# compile DIR COMPILER: src/*.cu to DIR/<compiler>/*.ptx; the error in DIR/<compiler>.err
compile() {
	local d=$1 c=$2 f
	mkdir -p "$d/$c"
	for f in "$d"/src/*.cu; do
		f=$(basename "$f" .cu)
		case $c in
		nvcc) (cd "$d/src" && $limit nvcc -arch=sm_80 -rdc=true --ptx -frandom-seed="$f" \
			"$f.cu" -o "../$c/$f.ptx") ;;
		clang) (cd "$d/src" && $limit "$CLANG" -x cuda --cuda-gpu-arch=sm_80 --cuda-device-only \
			-nocudainc --cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -Wno-inline-new-delete \
			-O2 -S -fgpu-rdc -DPTXLINK_CLANG -I"$ROOT/corpus/src" "$f.cu" -o "../$c/$f.ptx") ;;
		esac
	done > "$d/$c.err" 2>&1
}

# the command that made COMPILER/VARIANT.ptx, from the reproducer's directory
linkcmd() {
	echo "(cd $1 && $PTXLINK --verify $(vflags "$2") -o $2.ptx $ins)"
}

# check DIR COMPILER: link every variant, ptxas each, difftest each kernel.
# Appends to DIR/log and the counters in DIR/counts.
check() {
	local d=$1 c=$2 v k args ins vs=$VARIANTS earlier=
	ins=$(cd "$d/$c" && echo f[0-9]*.ptx)
	[ "$(echo $ins | wc -w)" = 1 ] && vs="$vs unlinked"
	for v in plain $vs; do
		# shellcheck disable=SC2086
		difftest_link "$d" "$c" "$v" "$earlier" "--verify $(vflags $v)" $ins
		earlier="$earlier $v"
	done
	[ -f "$d/$c/plain.ptx" ] || return
	while read -r k args; do
		for v in $vs; do
			[ -f "$d/$c/$v.ptx" ] || continue
			# shellcheck disable=SC2086
			difftest_compare "$d" "$c" plain "$v" "$k" "" $args
			[ $? = 1 ] && { linkcmd "$c" plain; linkcmd "$c" "$v"; } >> "$d/cmds"
		done
	done < <(sed -n 's/^kernel //p' "$d/src/manifest")
}

# one SEED: the whole pipeline for one program, in $work/seed-SEED
one() {
	local s=$1 d=$work/seed-$1 t0=$SECONDS nk clangnote=
	local compared=0 diffs=0 notcmp=0 lfail=0 pfail=0 rfail=0 cfail=0 noclang=0
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/log"
	: > "$d/cmds"
	python3 "$ROOT/tests/difftest/gen-programs.py" --seed "$s" --max-subclasses "$maxsub" --out "$d/src" \
		>> "$d/log" 2>&1 || { echo "FAIL gen-programs.py failed" >> "$d/log"; cfail=1; }
	if [ $cfail = 0 ] && ! compile "$d" nvcc; then
		echo "FAIL nvcc does not compile the program: $(grep -m1 error "$d/nvcc.err")" >> "$d/log"
		cfail=1
	fi
	[ $cfail = 0 ] && check "$d" nvcc
	if [ $cfail = 0 ] && [ -n "$CLANG" ]; then
		if compile "$d" clang; then
			check "$d" clang
		else
			noclang=1
			clangnote=" (clang skipped: $(grep -m1 error "$d/clang.err" | sed 's/^[^ ]* //' | cut -c1-90))"
		fi
	elif [ -z "$CLANG" ]; then
		noclang=1
	fi
	nk=$(grep -c '^kernel ' "$d/src/manifest" 2>/dev/null || echo 0)
	local status=pass
	[ $((diffs + lfail + pfail + rfail + cfail)) -gt 0 ] && status=fail
	echo "$status $compared $diffs $notcmp $lfail $pfail $rfail $cfail $noclang $nk" > "$d/counts"
	{
		echo "seed $s: $status, $(grep -c '^file ' "$d/src/manifest" 2>/dev/null) files, $nk kernels," \
			"$compared compared, $diffs differences, $notcmp not compared, $((SECONDS - t0)) s$clangnote"
		grep '^FAIL' "$d/log" | head -8 | sed 's/^/  /'
	} > "$d/summary"
	difftest_save "$d" "seed-$s" $status \
		"# reproduce in this directory (sources in src/, PTX per compiler in nvcc/ and clang/):" \
		"#   python3 $ROOT/tests/difftest/gen-programs.py --seed $s --max-subclasses $maxsub --out src"
	cat "$d/summary"
}

t0=$SECONDS
difftest_run_seeds

P=0 K=0 D=0 N=0 L=0 X=0 R=0 C=0 NC=0 pass=0 fail=0
for ((s = seed; s < seed + count; s++)); do
	f=$work/seed-$s/counts
	if [ ! -f "$f" ]; then
		fail=$((fail + 1)); P=$((P + 1)); continue
	fi
	read -r st k d n l x r c nc nk < "$f"
	P=$((P + 1)) K=$((K + k)) D=$((D + d)) N=$((N + n)) L=$((L + l)) X=$((X + x))
	R=$((R + r)) C=$((C + c)) NC=$((NC + nc))
	if [ "$st" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "difftest-programs: $N not compared (both runs stopped the same way), $L ptxlink failures," \
	"$X ptxas rejections, $R interpreter errors, $C programs that did not compile," \
	"$NC without clang; $((SECONDS - t0)) s"
[ $fail -gt 0 ] && echo "difftest-programs: reproducers in $faildir"
echo "difftest-programs: $P programs, $K kernels compared, $D differences"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
