#!/usr/bin/env bash
# printf lowering (stages/printf.c, issue 6).
#
#   tests/printf/run.sh PTXLINK PRINTF-EXPECTED [PTXLINK-RUN] [--update]
#
# 1. Cases here: NAME.ptx runs as `cd tests/printf && ptxlink --verify
#    NAME.ptx`, so diagnostics name it NAME.ptx:LINE:COL.
#      NAME.err          it must fail, print exactly this and leave no output;
#      otherwise         it must succeed, with stderr equal to NAME.warn (or
#                        empty) and output equal to NAME.expect.ptx if present;
#      NAME.werror.err   with -Werror=format it must fail with exactly this.
# 2. The corpus' residual-printf files (corpus/ptx-rejected) and nvcc's own
#    vprintf code (corpus/ptx/printf_demo*): lowered, or left alone.
# Every output must be accepted by ptxas -arch=<its target> (whole program
# and -c), hold no call to printf, and be a fixed point: a second run prints
# it unchanged.
# 3. With the reference interpreter (PTXLINK-RUN): each run.list kernel,
#    lowered, prints exactly what C's printf does (PRINTF-EXPECTED NAME).
# --update rewrites NAME.expect.ptx / .warn / .err / .werror.err from what
# ptxlink prints now (review `git diff tests/printf` by hand).
set -uo pipefail
ptxlink=$(realpath "$1") expected=$(realpath "$2")
runner=${3:-}
[ -z "$runner" ] || [ "$runner" = --update ] || runner=$(realpath "$runner")
update=0
[ "${4:-}" = --update ] && update=1
[ "$runner" = --update ] && { runner=; update=1; }
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=$(cd "$dir/../../corpus" && pwd)
. "$dir/../lib.sh"
find_ptxas
scratch printf
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# The output's checks: ptxas (both modes), no printf call, a fixed point.
check_output() {
	local what=$1 out=$2 arch
	if [ $have_ptxas = 1 ]; then
		arch=$(awk '/^[ \t]*\.target/{gsub(/[,;]/," ");print $2;exit}' "$out")
		if ptxas -arch="$arch" "$out" -o "$tmp/a.cubin" 2>"$tmp/ptxas.err" &&
		   ptxas -arch="$arch" -c "$out" -o "$tmp/a.cubin" 2>>"$tmp/ptxas.err"; then
			ok
		else
			bad "$what: ptxas rejects the output: $(head -2 "$tmp/ptxas.err")"
		fi
	fi
	# (unless an input defines printf: then its calls are ordinary)
	if grep -Eq '^(\.visible |\.weak )?\.func .*[ )]printf\($' "$out"; then
		ok
	elif grep -Eq '^[[:space:]]*printf,|,[[:space:]]*printf,|\)[[:space:]]*printf\b' "$out"; then
		bad "$what: a call to printf is left"
	else
		ok
	fi
	if "$ptxlink" --verify "$out" -o "$tmp/again.ptx" 2>"$tmp/again.err" &&
	   cmp -s "$out" "$tmp/again.ptx"; then
		ok
	else
		bad "$what: a second run changes the output"
	fi
}

same() {  # same WHAT WANT GOT
	if [ $update = 1 ]; then
		if [ -s "$3" ] || [ -e "$2" ]; then cp "$3" "$2"; fi
		ok
	elif cmp -s "$2" "$3" 2>/dev/null || { [ ! -e "$2" ] && [ ! -s "$3" ]; }; then
		ok
	else
		bad "$1"
		diff -u "$2" "$3" 2>&1 | head -20
	fi
}

cd "$dir" || exit 1
for ptx in *.ptx; do
	case $ptx in *.expect.ptx) continue ;; esac
	name=${ptx%.ptx}
	rm -f "$tmp/out.ptx"
	"$ptxlink" --verify "$ptx" -o "$tmp/out.ptx" 2>"$tmp/err"
	rc=$?
	if [ -e "$name.err" ]; then
		if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ ! -e "$tmp/out.ptx" ]; then ok; else bad "$name: exit $rc, expected failure without output"; fi
		same "$name: diagnostics differ from $name.err" "$name.err" "$tmp/err"
	else
		if [ $rc -eq 0 ]; then ok; else bad "$name: exit $rc: $(head -3 "$tmp/err")"; fi
		same "$name: stderr differs from $name.warn" "$name.warn" "$tmp/err"
		[ ! -e "$name.expect.ptx" ] || same "$name: output differs from $name.expect.ptx" "$name.expect.ptx" "$tmp/out.ptx"
		[ ! -e "$tmp/out.ptx" ] || check_output "$name" "$tmp/out.ptx"
	fi
	if [ -e "$name.werror.err" ]; then
		rm -f "$tmp/out.ptx"
		"$ptxlink" -Werror=format "$ptx" -o "$tmp/out.ptx" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ ! -e "$tmp/out.ptx" ]; then ok; else bad "$name -Werror=format: exit $rc, expected failure without output"; fi
		same "$name -Werror=format: diagnostics differ from $name.werror.err" "$name.werror.err" "$tmp/err"
	fi
done

# The corpus: every residual printf lowered; nvcc's vprintf code untouched.
for f in "$corpus"/ptx-rejected/*.ptx; do
	grep -q 'printf' "$f" || continue
	what=${f#"$corpus"/}
	if "$ptxlink" --verify "$f" -o "$tmp/out.ptx" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
		ok
		check_output "$what" "$tmp/out.ptx"
	else
		bad "$what: $(head -3 "$tmp/err")"
	fi
done
for f in "$corpus"/ptx/printf_demo*.ptx "$corpus"/ptx/clang_saxpy.sm_80.ptx; do
	what=${f#"$corpus"/}
	"$ptxlink" "$f" -o "$tmp/a.ptx" 2>"$tmp/err" && "$ptxlink" --no-stages "$f" -o "$tmp/b.ptx" &&
		cmp -s "$tmp/a.ptx" "$tmp/b.ptx" && [ ! -s "$tmp/err" ] && ok || bad "$what: the stage changed code that calls vprintf"
done

# The lowered kernels in the reference interpreter against C's printf.
if [ -n "$runner" ] && [ -x "$runner" ]; then
	while IFS='|' read -r name file kernel opts; do
		name=$(echo "$name" | tr -d ' ') file=$(echo "$file" | tr -d ' ') kernel=$(echo "$kernel" | tr -d ' ')
		case $name in '' | '#'*) continue ;; esac
		case $file in corpus/*) src=$corpus/${file#corpus/} ;; *) src=$dir/$file ;; esac
		"$ptxlink" "$src" -o "$tmp/run.ptx" 2>/dev/null || { bad "run $name ($file): ptxlink fails"; continue; }
		# shellcheck disable=SC2086
		"$runner" $opts "$tmp/run.ptx" "$kernel" >"$tmp/run.out" 2>"$tmp/run.err"
		rc=$?
		"$expected" "$name" >"$tmp/want.out"
		grep -Ev '^buffer [0-9]+ \(argument|^  \[[0-9]+\] ' "$tmp/run.out" >"$tmp/got.out"
		if [ $rc -eq 0 ] && cmp -s "$tmp/want.out" "$tmp/got.out"; then
			ok
		else
			bad "run $name ($file): exit $rc $(head -2 "$tmp/run.err")"
			diff -u "$tmp/want.out" "$tmp/got.out" | head -20
		fi
	done <"$dir/run.list"
else
	echo "note: no reference interpreter (ptxlink-run); kernels were not run"
fi
[ $have_ptxas = 1 ] || echo "note: ptxas not found; outputs were not assembled"

echo "printf: $pass passed, $fail failed"
[ $fail = 0 ]
