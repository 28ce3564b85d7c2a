#!/usr/bin/env bash
# Whole-program or relocatable: which ptxas mode compiles a linked program
# better.  For every multi-file corpus program (corpus/ptx/<prog>/), links
# it with ptxlink (default stages, and --no-devirt), compiles the result
# both ways and sums what ptxas -v says over all functions:
#   whole        ptxas -arch=sm_XX -v linked.ptx
#   relocatable  ptxas -c -v linked.ptx, then nvlink (with -lcudadevrt)
# plus, from the linked PTX, what the rule in ptxlink --ptxas looks at:
# indirect call sites (a register as callee) and functions whose address
# is taken.  Prints a markdown table (the README's).
#
# Usage: tools/mode-bench.sh [PTXLINK]   (default build/ptxlink)
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PTXLINK=${1:-$ROOT/build/ptxlink}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PATH=$CUDA_HOME/bin:$PATH
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

row() { # program, variant, linked ptx
	local arch; arch=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$3")
	local icalls; icalls=$(grep -cE '^\s*(@%p[0-9]+ )?call(\.uni)?\s+(\([^)]*\), *)?%r' "$3")
	local taken; taken=$(grep -oE 'mov\.u64\s+%rd[0-9]+, [A-Za-z_$][A-Za-z0-9_$]*;' "$3" | awk '{print $3}' | sort -u | wc -l)
	ptxas -arch="$arch" -v "$3" -o "$work/w.cubin" >"$work/w.txt" 2>&1 || echo "whole failed" >&2
	ptxas -arch="$arch" -c -v "$3" -o "$work/r.o" >"$work/r.txt" 2>&1 || echo "-c failed" >&2
	nvlink -arch="$arch" "$work/r.o" "${DEVRT[@]}" -o "$work/r.cubin" 2>/dev/null || echo "nvlink failed" >&2
	local ws; ws=$(stat -c %s "$work/w.cubin" 2>/dev/null || echo -)
	local rs; rs=$(stat -c %s "$work/r.cubin" 2>/dev/null || echo -)
	echo "| $1 | $2 | $icalls | $taken | $(sums "$work/w.txt") | $(sums "$work/r.txt") |"
}

echo "| program | stages | indirect calls | address-taken | whole: spill bytes | regs | frame | relocatable: spill bytes | regs | frame |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for d in "$ROOT"/corpus/ptx/*/; do
	p=$(basename "$d")
	extra=()
	case $p in handwritten) continue ;; *.G) extra=(--strip-debug) ;; esac
	for v in default --no-devirt --no-stages; do
		args=("${extra[@]}"); [ $v = default ] || args+=("$v")
		"$PTXLINK" "${args[@]}" "$d"*.ptx -o "$work/l.ptx" 2>/dev/null || { echo "| $p | $v | link failed |"; continue; }
		row "$p" "$v" "$work/l.ptx"
	done
done
