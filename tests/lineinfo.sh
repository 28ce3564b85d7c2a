#!/bin/sh
# Line information costs no optimization: every corpus input with .loc and
# no -G DWARF (.debug_info), each file and each multi-file program, goes
# through the stages as it is and with --strip-debug (which drops .file,
# .loc and the sections before them), and the two must say the same in
# --stats and write the same PTX but for the .loc, .file and section
# lines (.debug_str, clang -g's empty .debug_loc).  -lineinfo once kept every dead function alive (its .debug_str
# was taken for DWARF naming code).
#
# usage: lineinfo.sh PTXLINK CORPUSDIR
set -u
. "$(dirname "$0")/lib.sh"

if [ $# -ne 2 ]; then
	echo "usage: $0 PTXLINK CORPUSDIR" >&2
	exit 2
fi
ptxlink=$(exe_arg "$1") || exit 2
dir_arg "$2/ptx"
scratch lineinfo
limits 120 600

# What line information adds to a module's text.
strip_lines() {
	sed -e '/^[[:space:]]*\.loc[[:space:]]/d' -e '/^[[:space:]]*\.file[[:space:]]/d' \
	    -e '/^[[:space:]]*\.section[[:space:]]/,/^[[:space:]]*}/d' "$1" | grep -v '^[[:space:]]*$'
}

# same OPTS FILE...: prints why the two runs differ, or nothing.
same() {
	opts=$1
	shift
	# shellcheck disable=SC2086
	$limit "$ptxlink" -arch=sm_90a --stats $opts "$@" -o "$tmp/l.ptx" 2>"$tmp/l.err" || { echo "ptxlink failed: $(head -n 2 "$tmp/l.err")"; return; }
	# shellcheck disable=SC2086
	$limit "$ptxlink" -arch=sm_90a --stats --strip-debug $opts "$@" -o "$tmp/p.ptx" 2>"$tmp/p.err" || { echo "ptxlink --strip-debug failed: $(head -n 2 "$tmp/p.err")"; return; }
	cmp -s "$tmp/l.err" "$tmp/p.err" || { echo "--stats differ: $(diff "$tmp/p.err" "$tmp/l.err" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"; return; }
	strip_lines "$tmp/l.ptx" >"$tmp/l.txt"
	strip_lines "$tmp/p.ptx" >"$tmp/p.txt"
	cmp -s "$tmp/l.txt" "$tmp/p.txt" || echo "the code differs: $(diff "$tmp/p.txt" "$tmp/l.txt" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"
}

# one NAME FILE...: each set of options.
one() {
	name=$1
	shift
	grep -q '^[[:space:]]*\.loc[[:space:]]' "$@" || return 0
	! grep -q '\.section[[:space:]]*\.debug_info' "$@" || return 0
	for opts in "" "--inline=always --ipo --internalize"; do
		why=$(same "$opts" "$@")
		report "$name${opts:+ [$opts]}" "$why" "same stats and code"
	done
}

for f in "$2"/ptx/*.ptx; do
	one "${f#"$2"/ptx/}" "$f"
done
for d in "$2"/ptx/*/; do
	d=${d%/}
	[ "${d##*/}" = handwritten ] && continue
	one "${d#"$2"/ptx/}" "$d"/*.ptx
done
finish lineinfo "input with line information"
