#!/usr/bin/env bash
# Whole-program or relocatable: which ptxas mode compiles a linked program
# better.  For every multi-file corpus program (corpus/ptx/<prog>/), links
# it with ptxlink (default stages, and --no-devirt), compiles the result
# both ways and sums what ptxas -v says over all functions:
#   whole        ptxas -arch=sm_XX -v linked.ptx
#   relocatable  ptxas -c -v linked.ptx, then nvlink (with -lcudadevrt)
# plus what the rule of ptxlink --ptxas (tools/nvtools/mode.c) looks at, as
# its -v says it: indirect call sites, address-taken functions and those of
# them that call indirectly, functions with a call left, recursion; the mode
# it picks, and whether that mode is no worse than the other ("right"): the
# one at or below the inputs compiled apart (nvcc -rdc's route: no more spill
# bytes, no larger frame, at most 105% of its SASS) where the other is not,
# else fewer spill bytes, then a smaller frame, then more warps resident (the
# registers of the cubin's .text sections, as tools/nvtools/ptxas.c's nv_warps
# counts), then less SASS.  Prints a markdown table
# (docs/usage.md's).  Spill bytes are stores plus loads, summed over functions;
# regs the most any function uses; frame the stack frames summed; .text the
# final cubin's .text.* sections summed (SASS bytes).
#
# Usage: tools/bench/mode-bench.sh [PTXLINK]   (default build/ptxlink)
# Exits 1 if the rule picks the worse mode on any row (ctest mode-bench), 77
# without ptxas.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PTXLINK=${1:-$ROOT/build/ptxlink}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PATH=$CUDA_HOME/bin:$PATH
command -v ptxas >/dev/null 2>&1 || { echo "SKIPPED: ptxas not found"; exit 77; }
DEVRT=(-L"$CUDA_HOME/targets/x86_64-linux/lib" -lcudadevrt)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# spill bytes (stores+loads), max registers, stack frame bytes, summed
# over the functions ptxas -v reports (whole-program mode lists a callee
# under every kernel that calls it: counted once)
sums() {
	awk '/Function properties for/ { fn = $NF }
	     /bytes stack frame/ { f[fn] = $1; s[fn] = $5 + $9 }
	     /Used [0-9]+ registers/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^registers/ && $i > r) r = $i }
	     END { for (k in f) { tf += f[k]; ts += s[k] }; printf "%d | %d | %d", ts, r, tf }' "$1"
}

# the SASS bytes of a cubin (its .text.* sections summed) | the warps an
# SM of compute capability $2 holds at the most registers of any of them
# (sh_info's top byte), counted as tools/nvtools/ptxas.c's nv_warps
text() {
	readelf -S -W "$1" 2>/dev/null | awk -v cc="$2" '
	function hex(s,   i, v) { for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	{ sub(/^[^]]*\] */, "") }
	$1 ~ /^\.text\./ { n += hex(tolower($5)); g = int($(NF - 1) / 16777216); if (g > r) r = g }
	END {
		most = cc == 75 ? 32 : (cc ~ /^8[6-9]$/ || cc >= 120) ? 48 : 64
		w = 4 * int(16384 / ((r < 1 ? 1 : int((r + 7) / 8)) * 256))
		print n + 0 " | " (w < most ? w : most)
	}'
}

row() { # program, variant, linked ptx, ptxlink's arguments...
	local p=$1 v=$2 ptx=$3; shift 3
	local arch; arch=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$ptx")
	local icalls; icalls=$(grep -cE '^\s*(@%p[0-9]+ )?call(\.uni)?\s+(\([^)]*\), *)?%r' "$ptx")
	# what the rule looks at, and what it picks, as ptxlink -v says it
	local why; why=$("$PTXLINK" -v --ptxas -arch="$arch" "$@" -o "$work/auto.cubin" 2>&1 | grep 'compile mode:')
	local taken; taken=$(grep -o '[0-9]* functions address-taken' <<<"$why" | cut -d' ' -f1)
	local ti; ti=$(grep -o '[0-9]* of them calling indirectly' <<<"$why" | cut -d' ' -f1)
	local calling; calling=$(grep -o '[0-9]* functions calling' <<<"$why" | cut -d' ' -f1)
	local rec=no; grep -q '[(,] recursion[,)]' <<<"$why" && rec=yes
	local pick=whole; grep -q 'compile mode: relocatable' <<<"$why" && pick=reloc
	ptxas -arch="$arch" -v "$ptx" -o "$work/w.cubin" >"$work/w.txt" 2>&1 || { echo "whole failed" >"$work/w.txt"; }
	ptxas -arch="$arch" -c -v "$ptx" -o "$work/r.o" >"$work/r.txt" 2>&1 || echo "-c failed" >&2
	nvlink -arch="$arch" "$work/r.o" "${DEVRT[@]}" -o "$work/r.cubin" 2>/dev/null || echo "nvlink failed" >&2
	local cc=${arch#sm_}; cc=${cc%a}
	local w r; w="$(sums "$work/w.txt") | $(text "$work/w.cubin" "$cc")"; r="$(sums "$work/r.txt") | $(text "$work/r.cubin" "$cc")"
	grep -q 'whole failed' "$work/w.txt" && w="fails | - | - | - | -"
	# the inputs compiled apart, as nvcc -rdc does: the rule's reference
	local f i=0 objs=() a="- | - | - | - | -"; : >"$work/a.txt"
	for f in "$@"; do
		case $f in *.ptx) ;; *) continue ;; esac
		i=$((i + 1))
		ptxas -arch="$arch" -c -v "$f" -o "$work/a$i.o" >>"$work/a.txt" 2>&1 || { objs=(); break; }
		objs+=("$work/a$i.o")
	done
	[ ${#objs[@]} -gt 0 ] && nvlink -arch="$arch" "${objs[@]}" "${DEVRT[@]}" -o "$work/a.cubin" 2>/dev/null &&
		a="$(sums "$work/a.txt") | $(text "$work/a.cubin" "$cc")"
	# at or below the reference (spill bytes, frame, .text within 105%)
	# where the other mode is not decides; else spill bytes, frame, warps
	# (more is better), .text: the first that differs
	local wk rk best=same
	wk=$(awk -F' [|] ' '{ print $1, $3, $5, $4 }' <<<"$w"); rk=$(awk -F' [|] ' '{ print $1, $3, $5, $4 }' <<<"$r")
	near() { awk -F' [|] ' -v a="$a" 'BEGIN { split(a, x, / [|] /) } { exit !(x[4] != "-" && $1 <= x[1] && $3 <= x[3] && $4 * 100 <= x[4] * 105) }' <<<"$1"; }
	local nw=0 nr=0; near "$w" && nw=1; near "$r" && nr=1
	if [ "${w%% *}" = fails ]; then best=reloc
	elif [ $nw != $nr ]; then best=$([ $nr = 1 ] && echo reloc || echo whole)
	elif [ "$wk" != "$rk" ]; then
		best=$(printf '%s whole\n%s reloc\n' "$wk" "$rk" | sort -k1,1n -k2,2n -k3,3nr -k4,4n | head -1 | cut -d' ' -f5)
	fi
	local ok=yes; [ $best = same ] || [ $best = $pick ] || ok=NO
	echo "| $p | $v | $icalls | $taken | $ti | $calling | $rec | $w | $r | $a | $pick | $ok |"
	[ $ok = yes ] || wrong=$((wrong+1))
}

echo "| program | stages | indirect calls | address-taken functions | of them calling indirectly | functions calling | recursion | whole: spill bytes | regs | frame | .text | warps | relocatable: spill bytes | regs | frame | .text | warps | inputs apart (-rdc): spill bytes | regs | frame | .text | warps | auto picks | right |"
echo "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
wrong=0
for d in "$ROOT"/corpus/ptx/*/; do
	p=$(basename "$d")
	extra=()
	case $p in handwritten) continue ;; *.G) extra=(--strip-debug) ;; esac
	for v in default --no-devirt --no-stages; do
		args=("${extra[@]}"); [ $v = default ] || args+=("$v")
		"$PTXLINK" "${args[@]}" "$d"*.ptx -o "$work/l.ptx" 2>/dev/null || { echo "| $p | $v | link failed |"; continue; }
		row "$p" "$v" "$work/l.ptx" "${args[@]}" "$d"*.ptx
	done
done
[ $wrong = 0 ] || { echo "mode-bench: the rule picks the worse mode on $wrong rows" >&2; exit 1; }
