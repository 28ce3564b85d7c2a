#!/usr/bin/env bash
# The main job on the bundled corpus: what ptxlink is for, shown on every
# multi-file corpus program.  Sets up the machine (tools/setup.sh), builds
# ptxlink, then for each program
#   - links and optimizes its PTX files with ptxlink and compiles the result
#     with ptxas (`ptxlink --ptxas`), beside the builds a user has today:
#     nvcc -rdc=true + nvlink, and NVIDIA's link-time optimizer (nvcc -dlto),
#     each measured with ptxas -v and the cubin's .text sizes
#     (tools/bench/lto-bench.sh --multi-file);
#   - runs every kernel on the interpreter from the plain link and from
#     ptxlink's optimized output and compares buffers and printf output
#     (tests/difftest/coverage.sh --diff with the default stages);
# and prints one table: stack, spills, registers and SASS per build, and
# whether the kernels gave the same results; then the same for the public
# programs (code nobody here wrote, built from corpus/src/: lto-bench.sh
# --public), which the gate does not judge, with where ptxlink misses.
# A few minutes on 2 CPUs (the nvcc builds are cached in
# build/lto-bench/cache for the next run).
# Exits 1 when a kernel differs, a link fails, or ptxlink stacks or spills
# more than the better of the two NVIDIA builds beyond what
# tools/bench/lto-known.txt records.  Reports are kept in build/corpus/.
#
# The round trip of every corpus PTX file (ptxlink --no-stages, then ptxas:
# the same machine code) is the `roundtrip` test of tools/test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh || exit 1
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build >/dev/null && cmake --build build -j"$(nproc)" >/dev/null || exit 1
out=build/corpus
rm -rf "$out" && mkdir -p "$out"

# The multi-file programs: a directory of corpus/ptx but handwritten/ (not
# a program: files that clash on purpose).
progs=()
for d in corpus/ptx/*/; do
	p=$(basename "$d")
	[ "$p" = handwritten ] || progs+=("$p")
done

echo "run-corpus: ${#progs[@]} multi-file programs: ptxlink, nvcc -rdc and nvcc -dlto through ptxas" >&2
tools/bench/lto-bench.sh --multi-file --public -o "$out/builds.md" 2>"$out/builds.log"
bench=$?
[ -f "$out/builds.md" ] || { tail -20 "$out/builds.log" >&2; exit 1; }

echo "run-corpus: every kernel on the interpreter, plain link against ptxlink's output" >&2
only=$(printf '%s|' "${progs[@]}")
STAGES=1 DOC= OUT="$out/kernels.tsv" ONLY="^corpus/ptx/(${only%|})/" \
	tests/difftest/coverage.sh --diff build >"$out/kernels.log" 2>&1
interp=$?

# A program's interpreter cell: kernels compared and how many differed
# (kernels.tsv: label, kernel, status, how it ran, same or DIFFERENT).
kernels() { # prog
	awk -F'\t' -v l="corpus/ptx/$1/" '
		$1 == l && $5 != "" { n++; if ($5 != "same") d++ }
		END { if (!n) print "not run"; else if (d) printf "%d of %d DIFFER\n", d, n; else printf "%d same\n", n }' \
		"$out/kernels.tsv"
}

# The run-time figure: each completed kernel run again, with the options
# that completed, from the plain link, ptxlink's output and -dlto's PTX
# (nvlink -dlto -emit-ptx on lto-bench's objects), ptxlink-run --count.
# "instructions per thread / calls / local-memory instructions", all threads.
runtime() { # prog
	local p=$1 d=$out/runtime/$1 w=build/lto-bench/progs/$1 arch k args f c
	local files=(corpus/ptx/"$p"/*.ptx)
	mkdir -p "$d"
	arch=$(sed -n 's/^[[:space:]]*\.target[[:space:]]\+\([a-z0-9_]*\).*/\1/p' "${files[0]}" | head -1)
	build/ptxlink --no-stages -arch="$arch" -o "$d/plain.ptx" "${files[@]}" 2>/dev/null
	build/ptxlink -arch="$arch" -o "$d/ptxlink.ptx" "${files[@]}" 2>/dev/null
	ls "$w"/c/*.o >/dev/null 2>&1 &&
		nvlink -arch="$arch" -dlto -nvvmpath=build/lto-bench/nvvm -emit-ptx "$w"/c/*.o \
			-L/usr/local/cuda/targets/x86_64-linux/lib -lcudadevrt -o "$d/dlto.ptx" >/dev/null 2>&1
	awk -F'\t' -v l="corpus/ptx/$p/" '$1 == l && $3 == 0 { print $2 "\t" $6 }' "$out/kernels.tsv" |
	while IFS=$'\t' read -r k args; do
		printf '%-14s %-30.30s' "$p" "$(echo "$k" | c++filt 2>/dev/null || echo "$k")"
		for f in plain ptxlink dlto; do
			c=-
			# shellcheck disable=SC2086
			[ -f "$d/$f.ptx" ] && c=$(timeout 300 build/ptxlink-run "$d/$f.ptx" "$k" $args --count 2>&1 >/dev/null |
				sed -n 's/^count: .*(\([0-9.]*\) per thread), \([0-9]*\) calls, \([0-9]*\) local.*/\1\/\2\/\3/p')
			printf ' %-22s' "${c:--}"
		done
		echo
	done
}

{
	echo "Each build: .text bytes / max registers / stack / spill bytes (ptxas -v, the final cubin;"
	echo "stack and spills summed over the functions with code)."
	echo "gate: ptxlink's stack and spills at most the better NVIDIA build's.  kernels: run on the"
	echo "interpreter from the plain link and from ptxlink's output, compared.  SASS: ptxlink's .text"
	echo "against the better NVIDIA build's."
	echo
	printf '%-14s %-20s %-20s %-20s %-6s %-7s %s\n' program "nvcc -rdc" "nvcc -dlto" ptxlink gate SASS kernels
	# lto-bench's summary table: | program | mode | -rdc | -dlto | ptxlink | gate | SASS |
	awk -F' \\| ' '/^\| program \|/ { on = 1; next } on && /^\|---/ { next } on && !/^\|/ { exit }
		on { sub(/^\| /, "", $1); sub(/ \|$/, "", $7); print $1 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' \
		"$out/builds.md" >"$out/rows.tsv"
	for p in "${progs[@]}"; do
		row=$(awk -F'\t' -v p="$p" '$1 == p' "$out/rows.tsv")
		if [ -z "$row" ]; then  # -G programs: -dlto cannot take -G
			printf '%-14s %-20s %-20s %-20s %-6s %-7s %s\n' "$p" "(-G: -dlto cannot)" - - - - "$(kernels "$p")"
			continue
		fi
		IFS=$'\t' read -r _ a c l g s <<<"${row// · //}"
		case $g in ok) ;; known*) g=known ;; *) g=FAIL ;; esac
		printf '%-14s %-20s %-20s %-20s %-6s %-7s %s\n' "$p" "$a" "$c" "$l" "$g" "$s" "$(kernels "$p")"
	done
	echo
	sed -n 's/^\(Gate\|SASS\): /\1: /p' "$out/builds.md"
	tail -3 "$out/kernels.log"
	echo
	echo "Run time on the interpreter, per kernel: instructions per thread / calls / local-memory"
	echo "instructions (all threads of the small launch coverage.sh found to complete)."
	echo
	printf '%-14s %-30s %-22s %-22s %-22s\n' program kernel "plain link" ptxlink "nvcc -dlto"
	for p in "${progs[@]}"; do
		grep -q "^$p"$'\t' "$out/rows.tsv" && runtime "$p"
	done
	echo
	echo "Public programs (not judged by the gate; each kernel in $out/builds.md):"
	echo
	sed -n '/^| program | upstream |/,/^$/p' "$out/builds.md" | grep -v '^|---'
	sed -n '/^Where ptxlink misses/,/^Kernels on/p' "$out/builds.md" | grep '^- '
	echo
	echo "Per function: $out/builds.md; per kernel: $out/kernels.tsv."
} | tee "$out/table.txt"
[ "$bench" = 0 ] && [ "$interp" = 0 ] && ! grep -q FAIL "$out/rows.tsv"
