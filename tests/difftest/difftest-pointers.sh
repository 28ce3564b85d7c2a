#!/bin/sh
# Differential testing of the depot stage's scalar replacement on pointer
# variables, in PTX generated directly (tests/difftest/gen-pointers.py):
#
#   tests/difftest/difftest-pointers.sh [--seed S] [--count N]
#
# For each seed S .. S+N-1 (default 1 and 40) the kernel is linked plain
# (--no-stages) and with --verify and the default stages, --inline=never,
# --inline=always, --no-sroa and --ipo-constants; every output must pass
# the verifier and leave the plain link's buffer on the interpreter
# (tests/difftest/difftest.sh).  Needs neither nvcc nor ptxas.  Prints each
# failing seed and option, then "K kernel runs compared, F failures"; exit 1
# on any failure.  PTXLINK and PTXLINK_RUN name the binaries (default
# build/ptxlink and build/ptxlink-run).
root=$(cd "$(dirname "$0")/../.." && pwd)
PTXLINK=${PTXLINK:-$root/build/ptxlink}
PTXLINK_RUN=${PTXLINK_RUN:-$root/build/ptxlink-run}
export PTXLINK_RUN
seed=1 count=40
while [ $# -gt 0 ]; do
	case $1 in
	--seed) seed=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	*) echo "usage: difftest-pointers.sh [--seed S] [--count N]" >&2; exit 2 ;;
	esac
done
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
runs=0 fails=0
for s in $(seq "$seed" $((seed + count - 1))); do
	python3 "$root/tests/difftest/gen-pointers.py" "$s" >"$t/in.ptx" || exit 2
	if ! "$PTXLINK" -arch=sm_80 --no-stages "$t/in.ptx" -o "$t/plain.ptx" 2>"$t/err"; then
		echo "seed $s: the plain link fails: $(head -n 1 "$t/err")"
		fails=$((fails + 1))
		continue
	fi
	for o in "" --inline=never --inline=always --no-sroa --ipo-constants; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086
		if ! "$PTXLINK" -arch=sm_80 --verify $o "$t/in.ptx" -o "$t/out.ptx" 2>"$t/err"; then
			echo "seed $s ${o:-default}: ptxlink fails: $(grep -m 1 error "$t/err")"
			fails=$((fails + 1))
			continue
		fi
		"$root/tests/difftest/difftest.sh" "$t/plain.ptx" "$t/out.ptx" kern --block 2 \
			--arg buf:64:zero --arg s32:5 >"$t/diff" 2>&1
		rc=$?
		[ $rc = 0 ] && continue   # 77 too: both stopping compares nothing
		echo "seed $s ${o:-default}: $(head -n 2 "$t/diff" | tr '\n' ' ')"
		fails=$((fails + 1))
	done
done
echo "difftest-pointers: $runs kernel runs compared, $fails failures"
[ $fails = 0 ]
