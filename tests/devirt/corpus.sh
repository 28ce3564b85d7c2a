#!/usr/bin/env bash
# Devirtualization (stages/devirt.c, issue 5) on corpus programs with
# indirect calls, linked when they have several files (the cases in
# tests/devirt/ run through tests/runtests).
#
#   tests/devirt/corpus.sh PTXLINK [PTXLINK-RUN]
#
# Every output must be accepted by ptxas, be a fixed point (a second run
# prints it unchanged), and, with the interpreter, leave the same buffers as
# the plain round trip (--no-stages) for every kernel both runs complete,
# also with --devirt-funnel-max 1, 2 and 64 (SWEEP=0 skips those).  A table
# shows each program's indirect calls before and after.
set -uo pipefail
ptxlink=$(realpath "$1")
runner=${2:-}
[ -z "$runner" ] || runner=$(realpath "$runner")
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$dir/../.." && pwd)
. "$dir/../lib.sh"
find_ptxas
scratch devirt
pass=0 fail=0 skipped=0
verbose=${VERBOSE:-0}

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# an indirect call: call [(r),] %reg, ...
indirect() { grep -cE '^[[:space:]]*(@!?%[^ ]+ )?call(\.uni)?[[:space:]]+(\([^)]*\), )?%' "$1"; }

check_ptxas() {
	local what=$1 out=$2 arch
	[ $have_ptxas = 1 ] || return 0
	if grep -q '^\.address_size 32' "$out"; then
		echo "note: $what: ptxas (CUDA 12+) no longer compiles .address_size 32; not checked"
		return 0
	fi
	arch=$(awk '/^[ \t]*\.target/{gsub(/[,;]/," ");print $2;exit}' "$out")
	if ptxas -arch="$arch" "$out" -o "$tmp/a.cubin" 2>"$tmp/ptxas.err" ||
	   { grep -q '^\.extern' "$out" && ptxas -arch="$arch" -c "$out" -o "$tmp/a.cubin" 2>"$tmp/ptxas.err"; }; then
		ok
	else
		bad "$what: ptxas rejects the output: $(head -2 "$tmp/ptxas.err")"
	fi
}

check_fixed() {
	local what=$1 out=$2
	shift 2
	if "$ptxlink" --verify "$@" "$out" -o "$tmp/again.ptx" 2>"$tmp/again.err" &&
	   cmp -s "$out" "$tmp/again.ptx"; then
		ok
	else
		bad "$what: a second run changes the output"
	fi
}

# The launch options for a kernel: a buffer per pointer, small integers.
launch_args() {  # file kernel fill int
	local a=() t
	for t in $(awk -v k="$2" '
		$0 ~ "\\.entry[ \t]+" k "[ \t]*\\(?[ \t]*$" || $0 ~ "\\.entry[ \t]+" k "\\(" {on = 1}
		on && /\.param/ { for (i = 1; i <= NF; i++) if ($i ~ /^\.(u|s|b|f)(8|16|32|64)$/) { print $i; break } else if ($i ~ /^\.align$/) { print "agg"; break } }
		on && /\)/ && !/\.param/ {exit}
		on && /\{/ {exit}' "$1"); do
		case $t in
		.u64|.s64|.b64) a+=(--arg "buf:65536:$3") ;;
		.f32) a+=(--arg f32:1.5) ;;
		.f64) a+=(--arg f64:1.5) ;;
		.u*|.s*|.b*) a+=(--arg "${t#.}:$4") ;;
		*) a+=(--arg zero) ;;
		esac
	done
	echo "--grid 2 --block 32 --dynamic-shared 4096 --max-steps 5000000 ${a[*]}"
}

check_run() {  # what plain.ptx devirt.ptx
	local what=$1 a=$2 b=$3 k how rc any=0 same=0 none=0
	[ -n "$runner" ] || return 0
	for k in $(sed -nE 's/^\.(visible |weak )?\.entry[ \t]+([A-Za-z0-9_$]+).*/\2/p' "$a"); do
		for how in "pattern=1 16" "zero 16" "zero 1" "zero 0"; do
			PTXLINK_RUN=$runner "$root/tests/difftest/difftest.sh" "$a" "$b" "$k" \
				$(launch_args "$a" "$k" $how) > "$tmp/diff.out" 2>&1
			rc=$?
			[ $rc -eq 77 ] || break
		done
		case $rc in
		0) ok; any=1; same=$((same + 1)) ;;
		77) skipped=$((skipped + 1)); none=$((none + 1)) ;;
		*) bad "$what: kernel $k differs after devirt: $(head -3 "$tmp/diff.out" | tr '\n' ' ')" ;;
		esac
	done
	[ $any = 1 ] || echo "note: $what: the interpreter completes no kernel"
	[ "$verbose" = 1 ] && echo "run: $what: $same kernels the same, $none not completed"
	return 0
}

# the corpus
cd "$root/corpus/ptx"
printf '%-28s %8s %8s  %s\n' program before after strategies
for prog in handwritten/hw_control.ptx llc_fnptr.sm_80.ptx virtual_shapes.sm_80.ptx fnptr raytrace \
	mono_iface vcall_xfile exprtree bytecode; do
	name=$(basename "$prog" .ptx)
	if [ -d "$prog" ]; then inputs=("$prog"/*.ptx); else inputs=("$prog"); fi
	if ! "$ptxlink" --no-stages "${inputs[@]}" -o "$tmp/$name.plain.ptx" 2>"$tmp/err" ||
	   ! "$ptxlink" --verify --stats "${inputs[@]}" -o "$tmp/$name.ptx" 2>"$tmp/$name.stats"; then
		bad "$name: ptxlink fails: $(head -2 "$tmp/err" "$tmp/$name.stats")"
		continue
	fi
	ok
	printf '%-28s %8s %8s  %s\n' "$name" "$(indirect "$tmp/$name.plain.ptx")" \
		"$(indirect "$tmp/$name.ptx")" \
		"$(sed -n 's/^devirt: *[0-9]* devirtualized: //p' "$tmp/$name.stats")"
	check_ptxas "$name" "$tmp/$name.ptx"
	check_fixed "$name" "$tmp/$name.ptx"
	if [ ${#inputs[@]} -gt 1 ]; then  # callees then follow their callers
		if "$ptxlink" --verify $(printf '%s\n' "${inputs[@]}" | LC_ALL=C sort -r) \
			-o "$tmp/$name.rev.ptx" 2>"$tmp/err"; then
			check_ptxas "$name (reverse order)" "$tmp/$name.rev.ptx"
		else
			bad "$name: ptxlink fails in reverse order: $(head -2 "$tmp/err")"
		fi
	fi
	check_run "$name" "$tmp/$name.plain.ptx" "$tmp/$name.ptx"
	# every strategy: all calltargets (1), small funnels (2), all funnels (64);
	# the sanitizer build skips the sweep (SWEEP=0): the main build runs it
	for max in $([ "${SWEEP:-1}" = 1 ] && echo 1 2 64); do
		if "$ptxlink" --verify --devirt-funnel-max=$max "${inputs[@]}" -o "$tmp/$name.$max.ptx" 2>"$tmp/err"; then
			check_ptxas "$name (funnel max $max)" "$tmp/$name.$max.ptx"
			check_run "$name (funnel max $max)" "$tmp/$name.plain.ptx" "$tmp/$name.$max.ptx"
		else
			bad "$name: ptxlink --devirt-funnel-max=$max fails: $(head -2 "$tmp/err")"
		fi
	done
done

echo "devirt-corpus: $pass passed, $fail failed ($skipped kernel runs compared nothing)"
[ $fail -eq 0 ]
