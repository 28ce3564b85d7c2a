#!/usr/bin/env bash
# printf lowering (stages/printf.c, issue 6) beyond the cases in
# tests/printf/ (which run through tests/runtests):
#
#   tests/printf/corpus.sh PTXLINK PRINTF-EXPECTED [PTXLINK-RUN]
#
# 1. The corpus' residual-printf files (corpus/ptx-rejected) and nvcc's own
#    vprintf code (corpus/ptx/printf_demo*, printf_runtime*): lowered, or
#    left alone.  Every output must be accepted by ptxas -arch=<its target>
#    (whole program and -c), hold no call to printf, and be a fixed point: a
#    second run prints it unchanged.
# 2. With the reference interpreter (PTXLINK-RUN): each run.list kernel,
#    lowered, prints exactly what C's printf does (PRINTF-EXPECTED NAME).
set -uo pipefail
ptxlink=$(realpath "$1") expected=$(realpath "$2")
runner=${3:-}
[ -z "$runner" ] || runner=$(realpath "$runner")
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
for f in "$corpus"/ptx/printf_demo*.ptx "$corpus"/ptx/printf_runtime*.ptx "$corpus"/ptx/clang_saxpy.sm_80.ptx; do
	what=${f#"$corpus"/}
	# --no-depot: depot repacking may rightly change these (-G's %SP accesses);
	# --inline=never: so may inlining (the helpers that call printf);
	# --no-opt-locals: and so may forwarding -G's loads of local memory
	"$ptxlink" --no-depot --no-opt-locals --inline=never "$f" -o "$tmp/a.ptx" 2>"$tmp/err" && "$ptxlink" --no-stages "$f" -o "$tmp/b.ptx" &&
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

echo "printf-corpus: $pass passed, $fail failed"
[ $fail = 0 ]
