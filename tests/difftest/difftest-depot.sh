#!/usr/bin/env bash
# Differential testing of depot repacking (stages/depot.c) on generated CUDA.
#
#   tests/difftest/difftest-depot.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                           [--fail-dir DIR] [--no-clang]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10): tests/difftest/gen-depot.py
# writes a source whose kernels keep local arrays of every shape the stage
# handles; it is compiled three ways (nvcc -arch=sm_80 --ptx -O3, the same
# with -G, and clang -O2 in CUDA mode), and each PTX goes through ptxlink
# twice: with --no-depot (before) and with the default stages (after,
# -Rpass=depot --stats).  ptxas -arch=sm_80 must accept both, and every
# kernel runs on the interpreter before and after (tests/difftest/difftest.sh)
# with two choices of input data and integer arguments.  The three
# compilers' "before" runs must agree too: a disagreement means the
# generator wrote undefined behaviour (or a compiler or the interpreter is
# wrong), and fails the seed as well.
#
# Each seed prints one line with its depot bytes before and after per
# compiler (from --stats) and how many functions were repacked.  A failing
# seed (a difference, a ptxlink or ptxas failure, a source that does not
# compile) is saved with its source, PTX, outputs and commands in
# <fail-dir>/seed-S (default: difftest-depot-fail beside the ptxlink
# binary), and the run goes on.  The end is
#
#   difftest-depot: P seeds, K kernel runs compared, D differences
#   difftest-depot: depot bytes B before, A after; F functions with a depot: R repacked, ...
#   N passed, N failed
#
# and the exit status is 1 on any failure.  PTXLINK and PTXLINK_RUN name
# the binaries (default build/ptxlink and ptxlink-run beside it).  Exit 77
# (skipped) when nvcc or ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
difftest_options difftest-depot '2,32p' "$@"

difftest_setup difftest-depot difftest-depot-fail

COMPILERS="nvcc-O3 nvcc-G"
[ -n "$CLANG" ] && COMPILERS="$COMPILERS clang"
# the launches: one grid, two choices of data and integer arguments
# (ARGS1 and ARGS2 are read as ${!args})
LAUNCH="--grid 2 --block 32 --max-steps 50000000"
# shellcheck disable=SC2034
ARGS1="--arg buf:1024:pattern=1 --arg buf:256:zero --arg s32:3 --arg s32:5"
# shellcheck disable=SC2034
ARGS2="--arg buf:1024:pattern=2 --arg buf:256:zero --arg s32:0 --arg s32:12"

# depot_stat FILE: "bytes_before bytes_after funcs repacked not_smaller whole objects pinned dead made_local"
depot_stat() {
	awk '/^depot: [0-9]+ functions/ { f = $2; r = $7; n = $9; w = $13 }
	     /^depot: +[0-9]+ objects/ { o = $2; p = $4; x = $6 }
	     /^depot: +[0-9]+ bytes before/ { b = $2; a = $5 }
	     /generic accesses made local/ { l = $2 }
	     END { print b + 0, a + 0, f + 0, r + 0, n + 0, w + 0, o + 0, p + 0, x + 0, l + 0 }' "$1"
}

# check DIR COMPILER: ptxlink before and after, ptxas both, difftest each kernel
check() {
	local d=$1 c=$2 k n args
	difftest_link "$d" "$c" before "" "--verify --no-depot" in.ptx
	difftest_link "$d" "$c" after "" "--verify -Rpass=depot --stats" in.ptx
	[ -f "$d/$c/after.link.err" ] && depot_stat "$d/$c/after.link.err" > "$d/$c/stat"
	[ -f "$d/$c/before.ptx" ] && [ -f "$d/$c/after.ptx" ] || return
	for k in $kernels; do
		for n in 1 2; do
			args="ARGS$n"
			# shellcheck disable=SC2086
			difftest_compare "$d" "$c" before after "$k" "args$n" $LAUNCH ${!args}
			# the "before" output for the compilers' agreement
			# shellcheck disable=SC2086
			"$PTXLINK_RUN" "$d/$c/before.ptx" "$k" $LAUNCH ${!args} 2>&1 |
				grep '^buffer 1' > "$d/$c/$k.$n.out"
		done
	done
}

# stat_text DIR COMPILER: its depot bytes before and after, and how many
# functions were repacked
stat_text() {
	local b a f r
	read -r b a f r _ < "$1/$2/stat"
	echo "$b->$a ($r/$f repacked)"
}

# one SEED: the whole pipeline for one source, in $work/seed-SEED
one() {
	difftest_one "$1" gen-depot.py "depot bytes" "in.ptx, before.ptx, after.ptx"
}

t0=$SECONDS
difftest_run_seeds

difftest_tally
echo "difftest-depot: $N not compared (both runs stopped the same way), $L ptxlink failures," \
	"$X ptxas rejections, $R interpreter errors, $C sources that did not compile," \
	"$U compiler disagreements; $((SECONDS - t0)) s"
for c in $COMPILERS all; do
	echo "difftest-depot: $c: depot bytes ${tot[$c.0]:-0} before, ${tot[$c.1]:-0} after;" \
		"${tot[$c.2]:-0} functions with a depot: ${tot[$c.3]:-0} repacked," \
		"${tot[$c.4]:-0} kept (not smaller), ${tot[$c.5]:-0} kept whole;" \
		"${tot[$c.6]:-0} objects, ${tot[$c.7]:-0} pinned, ${tot[$c.8]:-0} dead;" \
		"${tot[$c.9]:-0} generic accesses made local"
done
[ $fail -gt 0 ] && echo "difftest-depot: reproducers in $faildir"
echo "difftest-depot: $P seeds, $NK kernels, $K kernel runs compared, $D differences"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
