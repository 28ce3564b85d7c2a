#!/usr/bin/env bash
# The interpreter's tests: each NAME.ptx here carries its command line in
# a "// RUN: kernel options..." comment (several RUN lines make several
# runs, their outputs concatenated) and, when it must fail, "// EXIT: N".
# Standard output must equal NAME.expect byte for byte; standard error
# must equal NAME.err when that file exists, and be empty otherwise.
#
#   tests/run/run.sh path/to/ptxlink-run [tests/run]
set -uo pipefail
RUN=$(realpath "$1")
DIR=${2:-$(dirname "$0")}
cd "$DIR" || exit 1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for ptx in *.ptx; do
	name=${ptx%.ptx}
	want_rc=$(sed -n 's|^// EXIT: *||p' "$ptx" | head -1)
	want_rc=${want_rc:-0}
	: > "$tmp/out"
	: > "$tmp/err"
	ok=1
	while IFS= read -r line; do
		# shellcheck disable=SC2086
		"$RUN" "$ptx" $line >> "$tmp/out" 2>> "$tmp/err"
		rc=$?
		if [ "$rc" -ne "$want_rc" ]; then
			echo "FAIL $name: exit $rc, expected $want_rc ($line)"
			ok=0
		fi
	done < <(sed -n 's|^// RUN: *||p' "$ptx")
	if ! cmp -s "$tmp/out" "$name.expect"; then
		echo "FAIL $name: standard output differs:"
		diff -u "$name.expect" "$tmp/out" | head -40
		ok=0
	fi
	if [ -f "$name.err" ]; then
		if ! cmp -s "$tmp/err" "$name.err"; then
			echo "FAIL $name: standard error differs:"
			diff -u "$name.err" "$tmp/err" | head -20
			ok=0
		fi
	elif [ -s "$tmp/err" ]; then
		echo "FAIL $name: unexpected standard error:"
		head -5 "$tmp/err"
		ok=0
	fi
	if [ $ok -eq 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "run: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
