#!/bin/sh
# Link tests: every CASESDIR/<case>/ is one run of ptxlink on hand-written
# PTX modules.
#
# usage: run.sh PTXLINK CASESDIR            run every case, exit 1 if any fails
#        run.sh PTXLINK CASESDIR --update   rewrite each case's expect.ptx or
#                                           expect.err from what PTXLINK does
#                                           now (review `git diff` by hand!)
#
# A case directory holds
#   inputs      the inputs, in order, one per line (a line '@FILE' passes a
#               response file, which names the inputs itself);
#   args        optional: extra command-line arguments, on one line;
#   expect.ptx  the exact output of a successful link, or
#   expect.err  the exact stderr of a failed one;
#   skip        optional: the case shows a known bug (see KNOWN-ISSUES.md)
#               and is not run; its one line says why.
#
# Each case runs as `cd CASE && PTXLINK ARGS INPUTS... -o TMP/out.ptx`, so
# diagnostics name the inputs relative to the case (`b.ptx:3:1: error: ...`).
# A case with expect.err passes only if the exit status is non-zero (and
# below 128: 128 and up is a crash), stderr equals expect.err byte for byte,
# stdout is empty, and neither TMP/out.ptx nor any TMP/out.ptx.tmp* is left.
# A case with expect.ptx passes only if the exit status is 0, stdout and
# stderr are empty, TMP/out.ptx equals expect.ptx byte for byte, no
# TMP/out.ptx.tmp* is left, and ptxas accepts the output: always
# `ptxas -arch=<its .target> -c`, and also without -c (whole program) unless
# ARGS has --allow-undefined or the output keeps an unresolved .extern other
# than vprintf, malloc and free (.extern .shared arrays are never defined and
# do not count).
#
# ptxas is looked up in PATH after /usr/local/cuda/bin; without it the
# script says "SKIPPED: ptxas not found" and exits 77.
set -u
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: $0 PTXLINK CASESDIR [--update]" >&2
	exit 2
}
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
update=0
if [ $# -eq 3 ]; then
	[ "$3" = --update ] || usage
	update=1
fi
ptxlink=$1
dir=$2
ptxlink=$(exe_arg "$ptxlink") || exit 2
dir_arg "$dir"
need_ptxas
scratch link-test
limits 20 120

# The names a PTX file (ptxlink's output: one module-scope declaration per
# line start) declares .extern, except .shared, and never defines.
unresolved() {
	awk '
	function declname(line,   s, n, w) {
		s = line
		if (s ~ /\.(func|entry)([ \t(]|$)/) {
			sub(/^.*\.(func|entry)[ \t]*/, "", s)
			if (substr(s, 1, 1) == "(")
				sub(/^\([^)]*\)[ \t]*/, "", s)
			if (match(s, /^[A-Za-z_$%][A-Za-z0-9_$]*/))
				return substr(s, RSTART, RLENGTH)
			return ""
		}
		sub(/[ \t]*=.*$/, "", s)
		sub(/;.*$/, "", s)
		sub(/\[.*$/, "", s)
		n = split(s, w, /[ \t]+/)
		return w[n]
	}
	/^\.(version|target|address_size|file|section|loc)([ \t]|$)/ { next }
	/^\./ {
		name = declname($0)
		if (name == "")
			next
		if ($0 ~ /^\.extern([ \t]|$)/) {
			if ($0 !~ /\.shared([ \t]|$)/ && !(name in ext)) {
				ext[name] = 1
				order[++n] = name
			}
		} else {
			def[name] = 1
		}
	}
	END {
		for (i = 1; i <= n; i++)
			if (!(order[i] in def))
				print order[i]
	}' "$1"
}

# Why ptxas rejects $tmp/out.ptx, or nothing.
check_ptxas() { # case-args
	target=$(sed -n 's/^\.target[ \t]*\([A-Za-z0-9_]*\).*/\1/p' "$tmp/out.ptx" | head -n 1)
	if [ -z "$target" ]; then
		echo "no .target in the output"
		return
	fi
	if ! $ptxas_limit ptxas -arch="$target" -c "$tmp/out.ptx" -o "$tmp/out.o" >"$tmp/ptxas" 2>&1; then
		echo "ptxas -arch=$target -c rejects the output:"
		sed 's/^/    /' "$tmp/ptxas"
		return
	fi
	case " $1 " in
	*" --allow-undefined "*) return ;;
	esac
	left=$(unresolved "$tmp/out.ptx" | grep -v -x -e vprintf -e malloc -e free)
	[ -n "$left" ] && return
	if ! $ptxas_limit ptxas -arch="$target" "$tmp/out.ptx" -o "$tmp/out.cubin" >"$tmp/ptxas" 2>&1; then
		echo "ptxas -arch=$target (whole program) rejects the output:"
		sed 's/^/    /' "$tmp/ptxas"
	fi
}

pass=0
fail=0
skipped=0
for c in "$dir"/*/; do
	[ -d "$c" ] || continue
	c=${c%/}
	name=${c##*/}
	if [ -f "$c/skip" ]; then
		echo "skip $name: $(head -n 1 "$c/skip")"
		skipped=$((skipped + 1))
		continue
	fi
	if [ ! -f "$c/inputs" ]; then
		echo "FAIL $name: no inputs file"
		fail=$((fail + 1))
		continue
	fi
	args=
	[ -f "$c/args" ] && args=$(head -n 1 "$c/args")
	inputs=$(cat "$c/inputs")
	rm -rf "$tmp"/out*
	# $args and $inputs are split into words on purpose (no spaces in names).
	(cd "$c" && exec $limit "$ptxlink" --no-stages $args $inputs -o "$tmp/out.ptx") \
		>"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?

	if [ $update -eq 1 ] && [ $rc -gt 0 ] && [ $rc -lt 124 ]; then
		cp "$tmp/stderr" "$c/expect.err"
		rm -f "$c/expect.ptx"
		echo "updated $name/expect.err (exit status $rc)"
	elif [ $update -eq 1 ] && [ $rc -eq 0 ] && [ -f "$tmp/out.ptx" ]; then
		cp "$tmp/out.ptx" "$c/expect.ptx"
		rm -f "$c/expect.err"
		echo "updated $name/expect.ptx"
	fi

	why=
	if [ -f "$c/expect.err" ] && [ -f "$c/expect.ptx" ]; then
		why="has both expect.err and expect.ptx"
	elif [ -f "$c/expect.err" ]; then
		if [ $rc -eq 0 ]; then
			why="exit status 0, expected failure"
		elif [ $rc -eq 124 ] && [ -n "$limit" ]; then
			why="timed out (hang?)"
		elif [ $rc -ge 128 ]; then
			why="exit status $rc (crash)"
		fi
		if ! cmp -s "$c/expect.err" "$tmp/stderr"; then
			why="${why:+$why; }stderr differs from expect.err"
		fi
		[ -s "$tmp/stdout" ] && why="${why:+$why; }wrote to stdout"
		left=$(cd "$tmp" && ls -d out.ptx out.ptx.tmp* 2>/dev/null)
		[ -n "$left" ] && why="${why:+$why; }left output behind: $(echo $left)"
	elif [ -f "$c/expect.ptx" ]; then
		if [ $rc -ne 0 ]; then
			why="exit status $rc, expected 0"
		elif [ ! -f "$tmp/out.ptx" ]; then
			why="no output file"
		elif ! cmp -s "$c/expect.ptx" "$tmp/out.ptx"; then
			why="output differs from expect.ptx"
		fi
		[ -s "$tmp/stderr" ] && why="${why:+$why; }wrote to stderr"
		[ -s "$tmp/stdout" ] && why="${why:+$why; }wrote to stdout"
		left=$(cd "$tmp" && ls -d out.ptx.tmp* 2>/dev/null)
		[ -n "$left" ] && why="${why:+$why; }left temporary files: $(echo $left)"
		if [ -z "$why" ]; then
			ptxas_why=$(check_ptxas "$args")
			[ -n "$ptxas_why" ] && why=$ptxas_why
		fi
	else
		why="neither expect.ptx nor expect.err (run with --update)"
	fi

	if [ -z "$why" ]; then
		echo "ok $name"
		pass=$((pass + 1))
		continue
	fi
	echo "FAIL $name: $why"
	fail=$((fail + 1))
	if [ -f "$c/expect.err" ] && ! cmp -s "$c/expect.err" "$tmp/stderr"; then
		diff -u --label "$name/expect.err" --label "stderr" "$c/expect.err" "$tmp/stderr" |
			sed 's/^/    /'
	elif [ -f "$c/expect.ptx" ] && [ -f "$tmp/out.ptx" ] && ! cmp -s "$c/expect.ptx" "$tmp/out.ptx"; then
		diff -u --label "$name/expect.ptx" --label "output" "$c/expect.ptx" "$tmp/out.ptx" |
			head -n 60 | sed 's/^/    /'
	fi
	if [ ! -f "$c/expect.err" ] && [ -s "$tmp/stderr" ]; then
		sed 's/^/    stderr: /' "$tmp/stderr"
	fi
done

if [ $((pass + fail + skipped)) -eq 0 ]; then
	echo "FAIL: no cases found in $dir"
	fail=1
fi
echo "link: $pass passed, $fail failed"
[ $fail -eq 0 ]
