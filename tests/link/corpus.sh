#!/bin/sh
# Link the corpus's multi-file programs and check ptxas accepts the results.
#
# usage: corpus.sh PTXLINK CORPUSDIR
#
# Every directory under CORPUSDIR/ptx except 'handwritten' holds one
# program split into several -rdc PTX modules.  For each, this
#   1. links its .ptx files (sorted by name) with `ptxlink -v` (-G DWARF
#      and all: dwarf.sh checks what becomes of it);
#   2. runs ptxas on the result: without -c when ptxlink -v says the output
#      is a whole program, else with -c (-arch taken from the output's .target);
#   3. links again and checks the output is byte-for-byte the same;
#   4. links the files in reverse order and checks that this succeeds too
#      and that ptxas accepts that result in the same way.
# Each directory is one line, `ok DIR` or `FAIL DIR: why`; the last line is
# `link-corpus: N passed, M failed`, and the exit status is 1 if any failed.
# ptxas is looked up in PATH after /usr/local/cuda/bin; without it the
# script says "SKIPPED: ptxas not found" and exits 77.
set -u
. "$(dirname "$0")/../lib.sh"

if [ $# -ne 2 ]; then
	echo "usage: $0 PTXLINK CORPUSDIR" >&2
	exit 2
fi
ptxlink=$1
corpus=$2
ptxlink=$(exe_arg "$ptxlink") || exit 2
dir_arg "$corpus/ptx"
need_ptxas
scratch link-corpus
limits 120 600

# link OUT FILE...: runs ptxlink -v; prints why it failed, or nothing.
link() {
	out=$1
	shift
	if ! $limit "$ptxlink" -v "$@" -o "$out" >"$tmp/stdout" 2>"$out.err"; then
		echo "ptxlink failed:"
		sed 's/^/    /' "$out.err"
		return
	fi
	if [ -s "$tmp/stdout" ]; then
		echo "ptxlink wrote to stdout"
	fi
	if [ ! -s "$out" ]; then
		echo "no output"
	fi
}

# assemble OUT: ptxas in the mode ptxlink -v asked for (OUT.err holds -v's
# message); prints why it failed, or nothing.
assemble() {
	target=$(sed -n 's/^\.target[ \t]*\([A-Za-z0-9_]*\).*/\1/p' "$1" | head -n 1)
	if [ -z "$target" ]; then
		echo "no .target in the output"
		return
	fi
	if grep -q 'whole program' "$1.err"; then
		mode=
	elif grep -q "needs 'ptxas -c'" "$1.err"; then
		mode=-c
	else
		echo "ptxlink -v did not say which ptxas mode the output needs:"
		sed 's/^/    /' "$1.err"
		return
	fi
	if ! $ptxas_limit ptxas -arch="$target" $mode "$1" -o "$tmp/out.cubin" >"$tmp/ptxas" 2>&1; then
		echo "ptxas -arch=$target${mode:+ $mode} rejects $2:"
		sed 's/^/    /' "$tmp/ptxas" | head -n 20
	fi
}

pass=0
fail=0
for d in "$corpus"/ptx/*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	name=${d##*/}
	[ "$name" = handwritten ] && continue
	files=$(cd "$d" && ls | LC_ALL=C sort | grep '\.ptx$')
	if [ -z "$files" ]; then
		echo "FAIL $name: no .ptx files"
		fail=$((fail + 1))
		continue
	fi
	reversed=$(echo "$files" | LC_ALL=C sort -r)
	rm -f "$tmp"/*

	# Inputs are named relative to the directory, as a user would.
	why=$(cd "$d" && link "$tmp/a.ptx" $files)
	[ -z "$why" ] && why=$(assemble "$tmp/a.ptx" "the output")
	if [ -z "$why" ]; then
		why=$(cd "$d" && link "$tmp/b.ptx" $files)
		if [ -z "$why" ] && ! cmp -s "$tmp/a.ptx" "$tmp/b.ptx"; then
			why="not deterministic: two links of the same files differ"
		fi
	fi
	if [ -z "$why" ]; then
		why=$(cd "$d" && link "$tmp/r.ptx" $reversed)
		[ -n "$why" ] && why="in reverse order: $why"
	fi
	[ -z "$why" ] && why=$(assemble "$tmp/r.ptx" "the reverse-order output")

	report "$name" "$why" "$(echo $files | wc -w) files$(grep -q 'whole program' "$tmp/a.ptx.err" 2>/dev/null && echo ', whole program')"
done
finish link-corpus "multi-file programs under $corpus/ptx"
