#!/usr/bin/env bash
# Differential testing of address preparation (stages/addrprep.c) on
# generated CUDA.
#
#   tests/difftest/difftest-addrprep.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                              [--fail-dir DIR] [--no-clang]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10): tests/difftest/gen-addrprep.py
# writes a source whose kernels compute indices and addresses of every
# shape the stage rewrites or must refuse; it is compiled two ways (nvcc
# -arch=sm_80 --ptx -O3, and clang -O2 in CUDA mode), and each PTX goes
# through ptxlink with the default stages (before), with --addrprep
# -Rpass=addrprep --stats (after), and with each rewrite alone
# (--addrprep=narrow, =fold, =sink).  ptxas -arch=sm_80 must accept every
# output, and every kernel runs on the interpreter before and after
# (tests/difftest/difftest.sh) with two choices of input data and integer
# arguments and in every launch shape its __launch_bounds__ allows (1-, 2-
# and 3-D blocks, 1- and 2-D grids); each single rewrite is compared with
# the first choice in two shapes.  The compilers' "before" runs must agree
# too: a disagreement means the generator wrote undefined behaviour (or a
# compiler or the interpreter is wrong), and fails the seed as well.
#
# Each seed prints one line with what the stage did per compiler (from
# --stats: values narrowed / products made mul.wide / offsets folded /
# computations sunk).  A failing seed (a difference, a ptxlink or ptxas
# failure, a source that does not compile) is saved with its source, PTX,
# outputs and commands in <fail-dir>/seed-S (default:
# difftest-addrprep-fail beside the ptxlink binary), and the run goes on.
# The end is
#
#   difftest-addrprep: P seeds, K kernel runs compared, D differences
#   difftest-addrprep: C: F functions: N values computed in 32 bits, W products made mul.wide, ...
#   N passed, N failed
#
# and the exit status is 1 on any failure.  PTXLINK and PTXLINK_RUN name
# the binaries (default build/ptxlink and ptxlink-run beside it).  Exit 77
# (skipped) when nvcc or ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
difftest_options difftest-addrprep '2,37p' "$@"

difftest_setup difftest-addrprep difftest-addrprep-fail

COMPILERS="nvcc-O3"
[ -n "$CLANG" ] && COMPILERS="$COMPILERS clang"
VARIANTS="after narrow fold sink"
# the launch shapes, each "threads-per-block grid block" (SHAPE1.. are read
# as ${!shape}); a kernel runs in those within its __launch_bounds__
# shellcheck disable=SC2034
SHAPE1="32 2 32"
# shellcheck disable=SC2034
SHAPE2="128 3,2 16,8"
# shellcheck disable=SC2034
SHAPE3="64 2 8,4,2"
# shellcheck disable=SC2034
SHAPE4="64 3,2 64,1,1"
# shellcheck disable=SC2034
SHAPE5="32 3,2 4,4,2"
NSHAPES=5
# two choices of data and integer arguments (ARGS1 and ARGS2 are read as ${!args})
# shellcheck disable=SC2034
ARGS1="--arg buf:8192:pattern=1 --arg buf:24576:zero --arg s32:3 --arg s32:5"
# shellcheck disable=SC2034
ARGS2="--arg buf:8192:pattern=2 --arg buf:24576:zero --arg s32:-2 --arg s32:12"
STEPS="--max-steps 50000000"

# addrprep_stat FILE: "funcs narrowed widened removed folded sunk"
addrprep_stat() {
	awk '/^addrprep: [0-9]+ functions/ { f = $2 }
	     /^addrprep: +[0-9]+ values computed/ { n = $2; w = $8; r = $12 }
	     /^addrprep: +[0-9]+ offsets folded/ { o = $2 }
	     /^addrprep: +[0-9]+ computations sunk/ { s = $2 }
	     END { print f + 0, n + 0, w + 0, r + 0, o + 0, s + 0 }' "$1"
}

# flags VARIANT: ptxlink's options for it
flags() {
	case $1 in
	before) echo "--verify" ;;
	after) echo "--verify --addrprep -Rpass=addrprep --stats" ;;
	*) echo "--verify --addrprep=$1" ;;
	esac
}

# compare DIR COMPILER VARIANT KERNEL N S: difftest one kernel, args N, shape S
compare() {
	local args="ARGS$5" shape="SHAPE$6" grid block
	read -r _ grid block <<< "${!shape}"
	# shellcheck disable=SC2086
	difftest_compare "$1" "$2" before "$3" "$4" "args$5 shape$6" \
		--grid "$grid" --block "$block" $STEPS ${!args}
}

# check DIR COMPILER: ptxlink every variant, ptxas each, difftest each kernel
check() {
	local d=$1 c=$2 v k n s i maxt tpb shape
	for v in before $VARIANTS; do
		difftest_link "$d" "$c" "$v" "" "$(flags "$v")" in.ptx
	done
	[ -f "$d/$c/after.link.err" ] && addrprep_stat "$d/$c/after.link.err" > "$d/$c/stat"
	[ -f "$d/$c/before.ptx" ] || return
	i=0
	for k in $kernels; do
		i=$((i + 1))
		maxt=$(cut -d' ' -f$i <<< "$maxthreads")
		local ok=()
		for ((s = 1; s <= NSHAPES; s++)); do
			shape="SHAPE$s"
			read -r tpb _ <<< "${!shape}"
			[ "$tpb" -le "${maxt:-1024}" ] && ok+=("$s")
		done
		for v in $VARIANTS; do
			[ -f "$d/$c/$v.ptx" ] || continue
			if [ "$v" = after ]; then
				for n in 1 2; do
					for s in "${ok[@]}"; do
						compare "$d" "$c" "$v" "$k" "$n" "$s"
					done
				done
			else
				for s in "${ok[@]:0:2}"; do
					compare "$d" "$c" "$v" "$k" 1 "$s"
				done
			fi
		done
		# the "before" output for the compilers' agreement
		for n in 1 2; do
			for s in "${ok[@]}"; do
				local args="ARGS$n" grid block
				shape="SHAPE$s"
				read -r _ grid block <<< "${!shape}"
				# shellcheck disable=SC2086
				"$PTXLINK_RUN" "$d/$c/before.ptx" "$k" --grid "$grid" --block "$block" $STEPS ${!args} 2>&1 |
					grep '^buffer 1' > "$d/$c/$k.$n.$s.out"
			done
		done
	done
}

# stat_text DIR COMPILER: its rewrites, narrowed/wide/folded/sunk
stat_text() {
	local f n w r o k
	read -r f n w r o k < "$1/$2/stat"
	echo "$n/$w/$o/$k"
}

# one SEED: the whole pipeline for one source, in $work/seed-SEED
one() {
	difftest_one "$1" gen-addrprep.py narrowed/wide/folded/sunk "in.ptx, before.ptx, after.ptx, narrow.ptx, ..."
}

t0=$SECONDS
difftest_run_seeds

difftest_tally
echo "difftest-addrprep: $N not compared (both runs stopped the same way), $L ptxlink failures," \
	"$X ptxas rejections, $R interpreter errors, $C sources that did not compile," \
	"$U compiler disagreements; $((SECONDS - t0)) s"
for c in $COMPILERS all; do
	echo "difftest-addrprep: $c: ${tot[$c.0]:-0} functions: ${tot[$c.1]:-0} values computed in 32 bits," \
		"${tot[$c.2]:-0} products made mul.wide, ${tot[$c.3]:-0} zero-extensions removed;" \
		"${tot[$c.4]:-0} offsets folded into addresses, ${tot[$c.5]:-0} computations sunk"
done
[ $fail -gt 0 ] && echo "difftest-addrprep: reproducers in $faildir"
echo "difftest-addrprep: $P seeds, $NK kernels, $K kernel runs compared, $D differences"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
