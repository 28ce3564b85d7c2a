#!/usr/bin/env bash
# tools/bench/lto-bench.sh's public programs on two of them (the smallest,
# separate_compilation and cdp_quicksort), so that the plumbing cannot rot:
# both built from their sources three ways, reported in a table of their
# own and not in the gate's, every kernel on the interpreter listed (none
# different), each miss named with a function and a reason; an unknown
# program is refused.  Skipped without nvcc and ptxas.
#   tests/lto-public.sh PTXLINK WORKDIR (nvcc builds cached there)
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
need_cuda ptxas nvcc nvlink
root=$(cd "$(dirname "$0")/.." && pwd)
scratch lto-public
export PTXLINK=$ptxlink LTOBENCH_WORK=$2
bench=$root/tools/bench/lto-bench.sh
progs="separate_compilation cdp_quicksort"

# shellcheck disable=SC2086
"$bench" -o "$tmp/r.md" $progs >"$tmp/log" 2>&1; rc=$?
check "two public programs, no difference (exit $rc)" "[ $rc = 0 ] && ! grep -q FAILURE $tmp/log"
# | program | upstream | mode | -rdc | -dlto | ptxlink | vs better peer | kernels |
pub=$(sed -n '/^## Public programs/,/^## /p' "$tmp/r.md")
rows=$(echo "$pub" | grep -E '^\| (separate_compilation|cdp_quicksort) \| [A-Za-z-]+/')
check "a row per program in the public table" "[ \$(echo \"\$rows\" | wc -l) = 2 ]"
check "every route built both" "! echo \"\$rows\" | cut -d'|' -f5-7 | grep -q 'n/a'"
check "neither is in the gate's table" \
	"! sed -n '/^| program | ptxlink.s mode |/,/^\$/p' $tmp/r.md | grep -qE '^\\| (separate_compilation|cdp_quicksort) \\|'"
# the Σ row's ptxlink .text and stack are its rows' sums
sum=$(echo "$rows" | awk -F'|' '{ split($7, c, "·"); t += c[1]; st += c[3] } END { printf "%d · – · %d ·", t, st }')
check "the Σ row adds up ($sum)" "echo \"\$pub\" | grep -F '| **Σ** ' | cut -d'|' -f7 | grep -qF \"\$sum\""
# the kernels: as many rows as the -rdc PTX has entries, none different
for p in $progs; do
	n=$(grep -hoE '^\.(visible |weak )?\.entry [^(]+' "$2"/progs/$p/a/ptx/*.ptx | sort -u | wc -l)
	k=$(echo "$pub" | grep -c "^| $p | \`")
	check "$p: a kernel row per entry ($k of $n)" "[ $n -gt 0 ] && [ $k = $n ]"
done
check "no kernel different" "! echo \"\$pub\" | grep -q DIFFER"
check "the function-pointer sample runs the same" "echo \"\$rows\" | grep -q '^| separate_compilation .*| 1: 1 run the same |\$'"
# a miss names the function and ptxlink's reason; "none." when there is none
misses=$(echo "$pub" | sed -n '/^Where ptxlink misses/,/^Kernels on/p' | grep '^- ')
check "the misses are listed" "[ -n \"\$misses\" ]"
check "each miss names a function and a reason" \
	"! echo \"\$misses\" | grep -vqE '^- (none\\.|\\*\\*[a-z_]+\\*\\*, (spill|stack|SASS): ptxlink [0-9]+, -(rdc|dlto) [0-9]+; most in \`[^\`]+\` \\(ptxlink [0-9]+, -(rdc|dlto) [0-9]+\\): .+\\.)\$'"
"$bench" -o "$tmp/r2.md" no_such_program >"$tmp/err" 2>&1; rc=$?
check "an unknown program is refused" "[ $rc = 2 ] && grep -q 'no corpus program no_such_program' $tmp/err && [ ! -e $tmp/r2.md ]"
finish lto-public
