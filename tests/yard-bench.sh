#!/usr/bin/env bash
# tools/bench/yard-bench.sh on three generated programs (seeds 1-3), so the
# script cannot rot: it builds each -rdc, -dlto and ptxlink, finds no
# difference on the interpreter, and its report's halves and sums agree
# with its per-program rows; --report writes the same page again; a bad
# option is refused.  Skipped without nvcc and ptxas.
#   tests/yard-bench.sh PTXLINK PTXLINK-RUN WORKDIR (nvcc builds cached there)
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
run=$(exe_arg "$2")
need_ptxas
command -v nvcc >/dev/null 2>&1 || { echo "SKIPPED: nvcc not found"; exit 77; }
root=$(cd "$(dirname "$0")/.." && pwd)
scratch yard-bench
export PTXLINK=$ptxlink PTXLINK_RUN=$run YARDBENCH_WORK=$3
bench=$root/tools/bench/yard-bench.sh

"$bench" -n 3 --seed 1 -o "$tmp/r.md" >"$tmp/log" 2>&1; rc=$?
check "three programs, no difference (exit $rc)" "[ $rc = 0 ] && ! grep -q FAILURE $tmp/log"
# the per-program rows: | yS | half | shapes | mode | -rdc | -dlto | ptxlink | ...
rows=$(grep -E '^\| y[0-9]+ \|' "$tmp/r.md")
check "a row per program, halves by seed parity" \
	"[ \"\$(echo \"\$rows\" | cut -d'|' -f2,3 | tr -d ' ')\" = \"\$(printf 'y1|HELD-OUT\ny2|FIT\ny3|HELD-OUT')\" ]"
check "every route built every program" "! echo \"\$rows\" | grep -q 'n/a\|failed'"
# Σ stack of ptxlink's and -dlto's cells of a half equal the summary's
sums() { echo "$rows" | awk -F'|' -v h="$1" '{ gsub(/ /, "", $3) } $3 == h {
	split($8, p, "·"); split($7, c, "·"); sp += p[3]; sc += c[3] } END { print sp " / " sc }'; }
check "the FIT half's Σ stack adds up" "grep '^| Σ stack: ' $tmp/r.md | grep -qF \"ptxlink / -dlto / -rdc | \$(sums FIT) / \""
check "the HELD-OUT half's Σ stack adds up" "grep '^| Σ stack: ' $tmp/r.md | grep -qF \"| \$(sums HELD-OUT) / \""
check "every kernel compared, none different" "grep -Eq '^\\| kernels on the interpreter: same / DIFFERENT / both stopped \\| [0-9]+ / 0 / 0 of [0-9]+ \\| [0-9]+ / 0 / 0 of [0-9]+ \\|' $tmp/r.md"
check "a run-time figure for every kernel" "grep -Eq '^\\| kernels in the run-time sums[^|]*\\| [1-9][0-9]* \\| [1-9][0-9]* \\|' $tmp/r.md"
"$bench" -n 3 --seed 1 --report -o "$tmp/r2.md" >/dev/null 2>&1
check "--report writes the same page" "cmp -s $tmp/r.md $tmp/r2.md"
"$bench" -n x -o "$tmp/r3.md" >"$tmp/err" 2>&1; rc=$?
check "-n x is refused" "[ $rc = 2 ] && grep -q 'take a number' $tmp/err && [ ! -e $tmp/r3.md ]"
finish yard-bench
