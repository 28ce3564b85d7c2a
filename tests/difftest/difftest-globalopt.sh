#!/usr/bin/env bash
# Differential testing of global optimization's folding (stages/globalopt.c)
# on generated CUDA.
#
#   tests/difftest/difftest-globalopt.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                           [--fail-dir DIR] [--no-clang]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10): tests/difftest/gen-globalopt.py
# writes a source whose kernels read never-written data in every shape the
# stage folds (and some it must not); it is compiled three ways (nvcc
# -arch=sm_80 --ptx -O3, the same with -G, and clang -O2 in CUDA mode), and
# each PTX goes through ptxlink -arch=sm_80 (a whole program) with
# --no-globalopt (before), the default stages (plain: the host may write
# every variable, so nothing folds) and --internalize (after: only the
# kernels are the host's, so the never-written data folds, -Rpass=globalopt
# --stats; -G builds fold nothing, their DWARF names every variable).  ptxas -arch=sm_80 must accept each,
# and every kernel runs on the interpreter before and after each
# (tests/difftest/difftest.sh) with two choices of input data and integer
# arguments.  The three compilers' "before" runs must agree too: a
# disagreement means the generator wrote undefined behaviour (or a compiler
# or the interpreter is wrong), and fails the seed as well.
#
# Each seed prints one line with the loads folded per compiler (from
# --stats).  A failing seed is saved with its source, PTX, outputs and
# commands in <fail-dir>/seed-S (default: difftest-globalopt-fail beside the
# ptxlink binary), and the run goes on.  The end is
#
#   difftest-globalopt: P seeds, K kernel runs compared, D differences
#   N passed, N failed
#
# and the exit status is 1 on any failure.  PTXLINK and PTXLINK_RUN name
# the binaries (default build/ptxlink and ptxlink-run beside it).  Exit 77
# (skipped) when nvcc or ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
difftest_options difftest-globalopt '2,32p' "$@"

difftest_setup difftest-globalopt difftest-globalopt-fail

COMPILERS="nvcc-O3 nvcc-G"
[ -n "$CLANG" ] && COMPILERS="$COMPILERS clang"
LAUNCH="--grid 2 --block 32 --max-steps 50000000"
# shellcheck disable=SC2034
ARGS1="--arg buf:1024:pattern=1 --arg buf:256:zero --arg s32:3 --arg s32:1"
# shellcheck disable=SC2034
ARGS2="--arg buf:1024:pattern=2 --arg buf:256:zero --arg s32:0 --arg s32:4"

# globalopt_stat FILE: "loads_folded results_made_constants"
globalopt_stat() {
	awk '/^globalopt: .* loads folded/ { for (i = 2; i < NF; i++) if ($(i+1) == "loads") l = $i }
	     /results of folded loads made constants/ { c = $2 }
	     END { print l + 0, c + 0 }' "$1"
}

# check DIR COMPILER: ptxlink before, plain and after, ptxas each, difftest each kernel
check() {
	local d=$1 c=$2 v k n args
	difftest_link "$d" "$c" before "" "--verify -arch=sm_80 --no-globalopt" in.ptx
	difftest_link "$d" "$c" plain before "--verify -arch=sm_80" in.ptx
	difftest_link "$d" "$c" after "before plain" "--verify -arch=sm_80 --internalize -Rpass=globalopt --stats" in.ptx
	[ -f "$d/$c/after.link.err" ] && globalopt_stat "$d/$c/after.link.err" > "$d/$c/stat"
	[ -f "$d/$c/before.ptx" ] || return
	for k in $kernels; do
		for n in 1 2; do
			args="ARGS$n"
			for v in plain after; do
				[ -f "$d/$c/$v.ptx" ] || continue
				# shellcheck disable=SC2086
				difftest_compare "$d" "$c" before "$v" "$k" "args$n" $LAUNCH ${!args}
			done
			# the "before" output for the compilers' agreement
			# shellcheck disable=SC2086
			"$PTXLINK_RUN" "$d/$c/before.ptx" "$k" $LAUNCH ${!args} 2>&1 |
				grep '^buffer 1' > "$d/$c/$k.$n.out"
		done
	done
}

# stat_text DIR COMPILER: the loads it folded
stat_text() {
	local l r
	read -r l r < "$1/$2/stat"
	echo "$l folded ($r results constant)"
}

# one SEED: the whole pipeline for one source, in $work/seed-SEED
one() {
	difftest_one "$1" gen-globalopt.py "loads" "in.ptx, before.ptx, plain.ptx, after.ptx"
}

t0=$SECONDS
difftest_run_seeds

difftest_tally
echo "difftest-globalopt: $N not compared (both runs stopped the same way), $L ptxlink failures," \
	"$X ptxas rejections, $R interpreter errors, $C sources that did not compile," \
	"$U compiler disagreements; $((SECONDS - t0)) s"
for c in $COMPILERS all; do
	echo "difftest-globalopt: $c: ${tot[$c.0]:-0} loads folded, ${tot[$c.1]:-0} results made constants"
done
[ $fail -gt 0 ] && echo "difftest-globalopt: reproducers in $faildir"
echo "difftest-globalopt: $P seeds, $NK kernels, $K kernel runs compared, $D differences"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
