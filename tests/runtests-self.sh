#!/bin/sh
# tests/runtests on cases made up here, with a stand-in for ptxlink that
# does what each case's "// DO: shell" lines say ($in, $out: its input and
# -o file).  Right expectations pass (a file case, a directory case, a
# variant); a wrong output, stderr or exit status, a crash, a hang, a file
# left behind, a failed GREP-NOT, ptxas's rejection and a changing second
# run (FIXPOINT) each fail; --update rewrites the expectations;
# CHECK-PTXAS without ptxas skips (exit 77).
set -u
runtests=$(cd "$(dirname "$0")" && pwd)/runtests
tmp=$(mktemp -d "${TMPDIR:-/tmp}/runtests-self.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

cat >"$tmp/ptxlink" <<'EOF'
#!/bin/sh
in=$1 out=$3
eval "$(sed -n 's|^// DO: ||p' "$in")"
EOF
printf '#!/bin/sh\necho "ptxas fatal: no" >&2\nexit 1\n' >"$tmp/ptxas"
chmod +x "$tmp/ptxlink" "$tmp/ptxas"
export PTXLINK="$tmp/ptxlink" RUNTESTS_TIMEOUT=1

# expect WHAT STATUS PATTERN... -- ARGS: `runtests ARGS` exits STATUS and
# prints a line matching each PATTERN.
expect() {
	what=$1 status=$2
	shift 2
	pats=
	while [ "$1" != -- ]; do
		pats="$pats$1
"
		shift
	done
	shift
	"$runtests" "$@" >"$tmp/log" 2>&1
	rc=$?
	why=
	[ $rc -eq "$status" ] || why="exit $rc, expected $status"
	while IFS= read -r pat; do
		[ -z "$pat" ] || grep -q -e "$pat" "$tmp/log" || why="$why; no line matches '$pat'"
	done <<EOF
$pats
EOF
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL $what: ${why#; }, in:"
		sed 's/^/    /' "$tmp/log"
		fail=$((fail + 1))
	fi
}

# mk DIR/NAME LINE...: the case DIR/NAME.ptx
mk() {
	n=$1
	shift
	printf '%s\n' "$@" >"$tmp/$n.ptx"
}

# good/: right expectations, a directory case and its variant
mkdir "$tmp/good" "$tmp/good/two"
echo '// RUN: ptxlink %s -o %t' >"$tmp/good/DEFAULT"
mk good/out '// DO: echo hello >"$out"'
echo hello >"$tmp/good/out.expect.ptx"
mk good/diag '// DO: echo "diag.ptx:1:1: error: no" >&2; exit 1'
echo "diag.ptx:1:1: error: no" >"$tmp/good/diag.err"
echo '// DO: cat a b >"$out"' >"$tmp/good/two/a"
echo '// DO: : >"$out"' >"$tmp/good/two/b"
printf '%s\n' '// RUN: ptxlink a -o %t' '// RUN.v: ptxlink b -o %t' >"$tmp/good/two/RUN"
cat "$tmp/good/two/a" "$tmp/good/two/b" >"$tmp/good/two.expect.ptx"
: >"$tmp/good/two.v.expect.ptx"
expect "right expectations" 0 '^ok two.v$' 'runtests: 4 passed, 0 failed' -- "$tmp/good"

# bad/: each case fails in its own way
mkdir "$tmp/bad"
echo '// RUN: ptxlink %s -o %t' >"$tmp/bad/DEFAULT"
mk bad/out '// DO: echo bye >"$out"'
echo hello >"$tmp/bad/out.expect.ptx"
mk bad/diag '// DO: echo "diag.ptx:1:1: error: no" >&2; exit 1'
echo other >"$tmp/bad/diag.err"
mk bad/passes '// DO: exit 0'
echo "passes.ptx:1:1: error: no" >"$tmp/bad/passes.err"
mk bad/crash '// DO: echo "crash.ptx:1:1: error: no" >&2; kill -SEGV $$'
echo "crash.ptx:1:1: error: no" >"$tmp/bad/crash.err"
mk bad/left '// DO: echo "left.ptx:1:1: error: no" >&2; : >"$out"; exit 1'
echo "left.ptx:1:1: error: no" >"$tmp/bad/left.err"
mk bad/hang '// DO: exec sleep 10'
mk bad/exit '// EXIT: 3' '// DO: exit 2'
mk bad/grep '// DO: echo "call f;" >"$out"' '// GREP-NOT: call'
echo "call f;" >"$tmp/bad/grep.expect.ptx"
mk bad/fix '// DO: echo "// DO: : >\"\$out\"" >"$out"' '// FIXPOINT'
echo '// DO: : >"$out"' >"$tmp/bad/fix.expect.ptx"
mk bad/asm '// DO: echo ".target sm_80" >"$out"' '// CHECK-PTXAS'
echo ".target sm_80" >"$tmp/bad/asm.expect.ptx"
PTXAS=$tmp/ptxas expect "wrong expectations" 1 \
	'^FAIL out: output differs from out.expect.ptx$' \
	'^FAIL diag: stderr differs from diag.err$' \
	'^FAIL passes: exit status 0, expected failure' \
	'^FAIL crash: exit status 1[0-9][0-9] (crash)' \
	'^FAIL left: left files behind: out.ptx$' \
	'^FAIL hang: timed out' \
	'^FAIL exit: exit status 2, expected 3$' \
	'^FAIL grep: a line of the output matches call$' \
	'^FAIL fix: a second run changes the output$' \
	'^FAIL asm: ptxas -arch=sm_80 -c rejects the output' \
	'runtests: 0 passed, 10 failed' -- -j2 "$tmp/bad"
PTXAS=/nonexistent expect "CHECK-PTXAS without ptxas" 77 \
	'^skip asm: ptxas not found' '^SKIPPED: ptxas not found' -- "$tmp/bad/asm.ptx"

# --update: new expectations, the right ones
rm "$tmp/bad/diag.err"
expect "--update" 0 '^updated out$' '^updated diag$' -- --update "$tmp/bad/out.ptx" "$tmp/bad/diag.ptx"
expect "after --update" 0 '^ok out$' '^ok diag$' -- "$tmp/bad/out.ptx" "$tmp/bad/diag.ptx"
if [ "$(cat "$tmp/bad/out.expect.ptx")" = bye ] && [ "$(cat "$tmp/bad/diag.err")" = "diag.ptx:1:1: error: no" ]; then
	pass=$((pass + 1))
else
	echo "FAIL --update wrote the wrong expectations"
	fail=$((fail + 1))
fi

echo "runtests-self: $pass passed, $fail failed"
[ $fail -eq 0 ]
