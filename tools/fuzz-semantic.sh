#!/usr/bin/env bash
# Semantic fuzzing: generated PTX programs (tests/difftest/gen-ptx.py) parsed,
# linked plain and through every stage at every option value, each kernel
# run on the interpreter before and after (tests/difftest/difftest-ptx.sh).
# Not in CI: a long run by hand.
#
#   tools/fuzz-semantic.sh [--seed S] [--count N] [--jobs J] [--per-feature]
#                          [--findings DIR] [--reduce] [generator options...]
#
# Runs seeds S .. S+N-1 (default 1 and 1000) J at a time (default 1: the
# machine is shared) and prints the figures: modules, kernels, kernel runs,
# differences, twin differences, verifier findings, link failures, ptxas
# rejections.  Generator options (--features=..., --no-FEATURE,
# --no-known-bad) pass through.  --per-feature runs the seeds once per
# feature issue 31 lists as miscompiled (gen-ptx.py --list-features), with
# the other such features off, and prints a table of which feature found
# what: the evidence of which stage each one breaks.  --findings DIR keeps
# each failure as DIR/ptxgen-SEED-[FEATURE-]WHAT/ and logs one line to
# DIR/ptxgen.log (--reduce: the first of each seed cut to its fewest
# features).  PTXLINK and PTXLINK_RUN name the binaries (default
# build/ptxlink and build/ptxlink-run).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seed=1 count=1000 jobs=1 perfeature=0 pass=()
while [ $# -gt 0 ]; do
	case $1 in
	--seed) seed=$2; shift ;;
	--count) count=$2; shift ;;
	--jobs | -j) jobs=$2; shift ;;
	--per-feature) perfeature=1 ;;
	--findings) pass+=(--findings "$2"); shift ;;
	-h | --help) sed -n '2,21p' "$0"; exit 0 ;;
	*) pass+=("$1") ;;
	esac
	shift
done
run=("$ROOT/tests/difftest/difftest-ptx.sh" --seed "$seed" --count "$count" --jobs "$jobs" --quiet)

if [ $perfeature = 0 ]; then
	exec nice "${run[@]}" "${pass[@]}"
fi

safe=$(python3 "$ROOT/tests/difftest/gen-ptx.py" --list-features | grep -v 'known bad' | awk '{print $1}' | paste -sd,)
bad=$(python3 "$ROOT/tests/difftest/gen-ptx.py" --list-features | grep 'known bad' | awk '{print $1}')
out=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-semantic.XXXXXX")
trap 'rm -rf "$out"' EXIT
status=0
for f in none $bad; do
	feats=$safe
	[ "$f" = none ] || feats=$safe,$f
	nice "${run[@]}" --features="$feats" --tag "$f" --fail-dir "$out/fail-$f" "${pass[@]}" > "$out/$f" 2>&1 || status=1
	tail -2 "$out/$f" | sed "s/^/$f: /"
done
echo
echo "feature      failing seeds; what failed: the variant (or twin, the plain link against the twin's) and in how many seeds"
for f in none $bad; do
	printf '%-12s %s; ' "$f" "$(grep -c '^seed .*: fail' "$out/$f")"
	# each failing seed's log (kept in the fail directory), one count per seed and what
	for l in "$out/fail-$f"/seed-*/log; do
		[ -f "$l" ] && sed -nE 's/^FAIL ([^:]*):.*/\1/p' "$l" | sed -E 's/ .*//' | sort -u
	done | sort | uniq -c | awk '{ printf "%s %d, ", $2, $1 }'
	echo
done
exit $status
