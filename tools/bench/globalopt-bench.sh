#!/usr/bin/env bash
# Global optimization's benchmark (issue 14): per corpus program, the
# linked PTX's bytes, functions and module variables kept, and what ptxas
# makes of it (global and constant bank bytes, SASS bytes, ptxas time),
# for ptxlink --no-globalopt ("before"), the default ("after") and
# --internalize; beside NVIDIA's link-time optimizer (nvcc -dlto + nvlink
# -dlto, ../shared/TOOLCHAIN.md) for the nvcc programs whose sources are in
# corpus/src.  The -nocudalib clang program is linked with libdevice's PTX
# (corpus/ptx-rejected/libdevice.sm_80.ptx).  Prints a Markdown table.
#
#   tools/bench/globalopt-bench.sh [build-dir]      (default build)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
LINK=$BUILD/ptxlink
export PATH=/usr/local/cuda/bin:$PATH
command -v ptxas >/dev/null || { echo "SKIPPED: ptxas not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Sizes of an ELF's sections matching a pattern, summed.
sect() {
	local s=0 h
	for h in $(readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' | awk -v re="$2" '$1 ~ re { print $5 }'); do
		s=$((s + 16#$h))
	done
	echo $s
}

# measure PTX: "bytes funcs vars global const sass seconds", or the error
measure() {
	local ptx=$1 arch=$2 mode=$3
	local bytes funcs vars
	bytes=$(wc -c <"$ptx")
	funcs=$(grep -c '^{' "$ptx")
	vars=$(grep -cE '^(\.visible |\.weak |\.common )?\.(global|const) ' "$ptx")
	local start end
	start=$(date +%s.%N)
	if ! ptxas -arch="$arch" $mode "$ptx" -o "$tmp/x.cubin" 2>"$tmp/ptxas.err"; then
		echo "$bytes $funcs $vars - - - rejected"
		return
	fi
	end=$(date +%s.%N)
	echo "$bytes $funcs $vars $(sect "$tmp/x.cubin" '^\.nv\.global') $(sect "$tmp/x.cubin" '^\.nv\.constant3') $(sect "$tmp/x.cubin" '^\.text\.') $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
}

row() { # program variant fields...
	local p=$1 v=$2
	shift 2
	set -- $*
	echo "| $p | $v | $1 | $2 | $3 | $4 | $5 | $6 | $7 |"
}

# ptxas mode for a linked output: -c unless ptxlink -v says whole program
mode_of() { grep -q "whole program" "$1" && echo "" || echo "-c"; }

dlto() { # program-dir arch: NVIDIA's LTO of corpus/src/<program>/*.cu
	local src=corpus/src/$1 arch=$2
	mkdir -p /tmp/nvvm/lib64 && ln -sfn /usr/local/cuda/nvvm/bin /tmp/nvvm/bin &&
		ln -sfn /usr/local/cuda/nvvm/libdevice /tmp/nvvm/libdevice &&
		ln -sf /usr/local/cuda/lib/libnvvm.so* /tmp/nvvm/lib64/ 2>/dev/null
	rm -f "$tmp"/*.o
	for f in "$src"/*.cu; do
		nvcc -arch="$arch" -rdc=true -dlto -c "$f" -o "$tmp/$(basename "$f" .cu).o" 2>/dev/null || return 1
	done
	local start end
	start=$(date +%s.%N)
	nvlink -arch="$arch" -dlto -nvvmpath=/tmp/nvvm -L/usr/local/cuda/targets/x86_64-linux/lib \
		"$tmp"/*.o -lcudadevrt -o "$tmp/lto.cubin" 2>/dev/null || return 1
	end=$(date +%s.%N)
	nvlink -arch="$arch" -dlto -nvvmpath=/tmp/nvvm -L/usr/local/cuda/targets/x86_64-linux/lib \
		"$tmp"/*.o -lcudadevrt -emit-ptx -o "$tmp/lto.ptx" 2>/dev/null || return 1
	echo "$(wc -c <"$tmp/lto.ptx") $(grep -c '^{' "$tmp/lto.ptx") $(grep -cE '^(\.visible |\.weak |\.common )?\.(global|const) ' "$tmp/lto.ptx") $(sect "$tmp/lto.cubin" '^\.nv\.global') $(sect "$tmp/lto.cubin" '^\.nv\.constant3') $(sect "$tmp/lto.cubin" '^\.text\.') $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
}

echo "| program | variant | PTX bytes | functions | variables | global bank | constant bank | SASS bytes | ptxas s |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
programs=()
for d in corpus/ptx/*/; do
	n=$(basename "$d")
	case $n in handwritten | *.G) continue ;; esac
	programs+=("$n")
done
programs+=(nocudalib)
for p in "${programs[@]}"; do
	if [ "$p" = nocudalib ]; then
		files=(corpus/ptx/clang_math_nocudalib.sm_80.ptx corpus/ptx-rejected/libdevice.sm_80.ptx)
	else
		files=(corpus/ptx/"$p"/*.ptx)
	fi
	arch=$(sed -nE 's/^[[:space:]]*\.target[[:space:]]+(sm_[0-9a-z]+).*/\1/p' "${files[0]}" | head -1)
	for v in before after internalize; do
		case $v in
		before) opts=(--no-globalopt) ;;
		after) opts=() ;;
		internalize) opts=(--internalize) ;;
		esac
		if ! "$LINK" -v -arch="$arch" "${opts[@]}" "${files[@]}" -o "$tmp/$v.ptx" 2>"$tmp/$v.err"; then
			row "$p" "$v" "- - - - - - $(grep -m1 -o 'error: .*' "$tmp/$v.err" | tr ' ' '_')"
			continue
		fi
		row "$p" "$v" "$(measure "$tmp/$v.ptx" "$arch" "$(mode_of "$tmp/$v.err")")"
	done
	if [ "${p#clang_}" = "$p" ] && [ "$p" != nocudalib ] && ls corpus/src/"$p"/*.cu >/dev/null 2>&1; then
		r=$(dlto "$p" "$arch") && row "$p" "nvcc -dlto" "$r" || row "$p" "nvcc -dlto" "- - - - - - failed"
	fi
done
