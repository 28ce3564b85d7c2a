#!/bin/sh
# Bad-input tests: every DIR/NAME.ptx is malformed PTX, and DIR/NAME.err
# holds the exact diagnostics ptxlink must print for it.
#
# usage: run.sh PTXLINK DIR            run every case, exit 1 if any fails
#        run.sh PTXLINK DIR --update   rewrite each NAME.err from what PTXLINK
#                                      prints now (for maintainers: review the
#                                      resulting `git diff tests/bad` by hand)
#
# Each case runs as `cd DIR && PTXLINK --verify NAME.ptx -o TMP/out.ptx`, so
# the diagnostics name the file as `NAME.ptx:LINE:COL: error: ...`.  A case
# passes only if
#   - the exit status is non-zero and below 128 (128 and up is a crash),
#   - stderr equals NAME.err byte for byte,
#   - neither TMP/out.ptx nor any TMP/out.ptx.tmp* file is left behind.
# Cases run under a time limit (timeout(1), when present) so a hang fails
# instead of stalling the suite.
set -u

if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$3" != --update ]; }; then
	echo "usage: $0 PTXLINK DIR [--update]" >&2
	exit 2
fi
ptxlink=$1
dir=$2
update=0
[ $# -eq 3 ] && update=1

case $ptxlink in
/*) ;;
*) ptxlink=$(pwd)/$ptxlink ;;
esac
if [ ! -x "$ptxlink" ]; then
	echo "$0: '$ptxlink' is not an executable" >&2
	exit 2
fi
cd "$dir" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bad-input.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 20"

pass=0
fail=0
for case in *.ptx; do
	[ -e "$case" ] || continue	# (directory.ptx is a directory on purpose)
	name=${case%.ptx}
	rm -rf "$tmp"/out*
	$limit "$ptxlink" --verify "$case" -o "$tmp/out.ptx" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	if [ $update -eq 1 ]; then
		cp "$tmp/stderr" "$name.err"
		echo "updated $name.err (exit status $rc)"
		continue
	fi
	why=
	if [ $rc -eq 0 ]; then
		why="exit status 0, expected failure"
	elif [ $rc -eq 124 ] && [ -n "$limit" ]; then
		why="timed out (hang?)"
	elif [ $rc -ge 128 ]; then
		why="exit status $rc (crash)"
	fi
	if [ ! -f "$name.err" ]; then
		why="${why:+$why; }no $name.err"
	elif ! cmp -s "$name.err" "$tmp/stderr"; then
		why="${why:+$why; }stderr differs from $name.err"
	fi
	left=$(cd "$tmp" && ls -d out.ptx out.ptx.tmp* 2>/dev/null)
	if [ -n "$left" ]; then
		why="${why:+$why; }left output behind: $(echo $left)"
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name: $why"
		if [ -f "$name.err" ]; then
			diff -u --label "$name.err (expected)" --label "stderr (actual)" \
				"$name.err" "$tmp/stderr" | sed 's/^/    /'
		else
			sed 's/^/    /' "$tmp/stderr"
		fi
		fail=$((fail + 1))
	fi
done

[ $update -eq 1 ] && exit 0
if [ $((pass + fail)) -eq 0 ]; then
	echo "FAIL: no cases found in $dir"
	fail=1
fi
echo "bad-input: $pass passed, $fail failed"
[ $fail -eq 0 ]
