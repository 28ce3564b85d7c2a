#!/usr/bin/env bash
# Runs every .entry of every corpus PTX file through ptxlink-run with a
# small launch and made-up arguments, and records whether it completed or
# what stopped it.  The files of a multi-file program (a directory under
# corpus/ptx other than handwritten/) are first linked into one module by
# ptxlink, and their kernels run from that.  Writes the table into
# docs/interpreter.md (between the coverage markers) and the per-kernel
# results to $OUT (default build/coverage.tsv: label, kernel, exit status,
# how it ran, same or DIFFERENT with --diff, and the ptxlink-run options of
# the run that completed).
#
#   tests/difftest/coverage.sh [--diff] [build-dir]          (default build)
#
# --diff also passes each module through ptxlink (the plain round trip;
# with STAGES=1 its default optimization stages too: devirtualization,
# printf lowering) and, for every kernel that completed, runs
# tests/difftest/difftest.sh on the two with the same arguments; any difference
# fails the script, and so does a link that fails or prints a verifier line
# (ptxlink runs with --verify).
# DOC= (empty) skips writing the document.
#
# VARIANTS (with --diff) sweeps the stage options instead: each module is
# linked by ptxlink --verify -arch=<its .target> once per variant
# (VARIANTS=all: every one of tests/difftest/difftest-lib.sh's
# DIFFTEST_VARIANTS, and "unlinked", the one-input path without -arch;
# or names: VARIANTS="always ipoconst"), each output that differs from the
# plain round trip's and every earlier variant's goes through ptxas (-c)
# and every completing kernel runs on it, compared with the module's own
# run.  A ptxlink failure, an "ir_verify" line in its messages or a ptxas
# rejection fails the script too; the end counts the runs compared.
# ONLY=ERE keeps the modules whose label matches (the small ctest).
# DIRS="DIR..." runs the multi-file programs in those directories of PTX
# files instead of the corpus (tools/bench/lto-bench.sh's public programs,
# whose PTX it builds); a label is the directory's path.
#
# Arguments come from the kernel's signature (ptxlink-run --list, and the
# demangled name where c++filt is there): pointer parameters (64-bit ones
# the name does not call integers) get a
# $BUF-byte buffer, other integers 16, floats 1.5, aggregates zero bytes.
# Buffers are filled with a fixed pattern.  A kernel that faults (say on
# an index or pointer read from patterned data, or a tile offset computed
# from an integer argument) runs again with zero-filled buffers, with 8-
# and 16-byte-aligned structs (iterators, device_ptr) holding pointers to
# buffers, with integers 1 and 0, as one block (a tile index past the data
# a host would size the grid for), with buffers of 0xff bytes (-1 indexes
# end a linked walk) and with structs of small integers (GridEvenShare);
# the first run that completes counts.  Launch: 2 blocks of 64 threads (or the .reqntid
# shape; 2 clusters when the kernel has a .reqnctapercluster shape), 4 KiB of dynamic
# shared memory, at most $STEPS instructions.
set -uo pipefail
cd "$(dirname "$0")/../.."
DIFF=
if [ "${1:-}" = --diff ]; then
	DIFF=1
	shift
fi
BUILD=${1:-build}
RUN=$BUILD/ptxlink-run
LINK=$BUILD/ptxlink
OUT=${OUT:-$BUILD/coverage.tsv}
DOC=${DOC-docs/interpreter.md}
STEPS=${STEPS:-20000000}
BUF=${BUF:-262144}
JOBS=${JOBS:-$(nproc)}
[ -x "$RUN" ] && [ -x "$LINK" ] || { echo "coverage: build $RUN and $LINK first" >&2; exit 1; }
# the plain round trip: parse and print, no optimization stages
PLAIN=
"$LINK" --help 2>&1 | grep -q -- --no-stages && PLAIN=--no-stages
NOSTAGES=$PLAIN
[ "${STAGES:-0}" = 1 ] && PLAIN=
# STAGE_ARGS: more ptxlink options for the staged side (say --internalize)
[ "${STAGES:-0}" = 1 ] && PLAIN=${STAGE_ARGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ONLY=${ONLY:-}
# shellcheck source=tests/difftest/difftest-lib.sh
. tests/difftest/difftest-lib.sh
VARIANTS=${VARIANTS:-}
[ "$VARIANTS" = all ] && VARIANTS="$DIFFTEST_VARIANTS unlinked"
for v in $VARIANTS; do difftest_vflags "$v" > /dev/null || exit 2; done
PTXAS=$(command -v ptxas || command -v /usr/local/cuda/bin/ptxas || true)
: > "$tmp/failed"

args_for() {  # fill structs int grid kernel params... -> the launch options
	local fill=$1 structs=$2 int=$3 grid=$4 block="--block 64" cluster= cx cy cz a=()
	shift 5
	for p in "$@"; do
		case "$p" in
		@block=*) block="--block ${p#@block=}" ;;
		@cluster=*) cluster=${p#@cluster=} ;;
		*:i) t=${p%:i}; a+=(--arg "${t#.}:$int") ;;
		.u64*|.b64*|.s64*) a+=(--arg "buf:$BUF:$fill") ;;
		.u32*|.b32*|.s32*|.u16*|.b16*|.s16*|.u8|.b8|.s8) t=${p%:*}; a+=(--arg "${t#.}:$int") ;;
		.f32) a+=(--arg f32:1.5) ;;
		.f64) a+=(--arg f64:1.5) ;;
		*x*/8|*x*/16) case $structs in
			ptrs) a+=(--arg "ptrs:$BUF:$fill") ;;
			ints) a+=(--arg "words8:$int") ;;
			*) a+=(--arg zero) ;;
			esac ;;
		*x*/4) if [ "$structs" = ints ]; then a+=(--arg "words4:$int"); else a+=(--arg zero); fi ;;
		*) a+=(--arg zero) ;;
		esac
	done
	if [ -n "$cluster" ]; then  # the grid in whole clusters: $grid of them along x
		IFS=, read -r cx cy cz <<< "$cluster"
		grid="$((cx * grid)),${cy:-1},${cz:-1}"
	fi
	echo "--grid $grid $block --dynamic-shared 4096 --max-steps $STEPS ${a[*]}"
}

# The same kernel from the module and from its round trip through ptxlink
# (with VARIANTS, from each variant's output: NAME=FILE,... or + for none).
compare() {  # fill structs int grid file roundtrip kernel params...
	local out
	case $6 in *=* | +) sweep "$@"; return ;; esac
	# shellcheck disable=SC2046
	out=$(PTXLINK_RUN=$RUN tests/difftest/difftest.sh "$5" "$6" "$7" \
		$(args_for "$1" "$2" "$3" "$4" "$7" "${@:8}") 2>&1)
	case $? in
	0) echo "same" ;;
	*) echo "DIFFERENT: $(printf '%s' "$out" | head -3 | tr '\n\t' '  ')" ;;
	esac
}

# As tests/difftest/difftest.sh, with the module run once for every
# variant: "same N" (N runs compared) or "DIFFERENT name: why".
sweep() {  # fill structs int grid file outputs kernel params...
	local args base=$tmp/run.$$ v rc b n=0 out outs
	args=$(args_for "$1" "$2" "$3" "$4" "$7" "${@:8}")
	# shellcheck disable=SC2086
	timeout 300 "$RUN" "$5" "$7" --dump --printf-by-thread $args > "$base.a" 2> "$base.ae"
	rc=$?
	IFS=, read -r -a outs <<< "${6#+}"
	for v in "${outs[@]}"; do
		# shellcheck disable=SC2086
		timeout 300 "$RUN" "${v#*=}" "$7" --dump --printf-by-thread $args > "$base.b" 2> "$base.be"
		b=$?
		n=$((n + 1))
		if [ $b -ne $rc ]; then
			out="exit $rc before, $b after: $(sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //' "$base.be" | head -1)"
		elif ! cmp -s "$base.a" "$base.b"; then
			out="output differs: $(diff "$base.a" "$base.b" | head -3 | tr '\n\t' '  ')"
		else
			continue
		fi
		echo "DIFFERENT ${v%%=*} ($(difftest_vflags "${v%%=*}")): $out"
		rm -f "$base".*
		return
	done
	rm -f "$base".*
	echo "same $n"
}

# Links module FILE (label LABEL) once per variant into $tmp; prints the
# outputs to run (NAME=FILE,...; + when every one is the plain round
# trip's or an earlier's).  Failures go to $tmp/failed.
sweep_link() {  # label file
	local label=$1 f=$2 base v t arch outs='' flags w dup open=''
	base=$tmp/sw.$(echo "$label" | tr '/.' '__')
	arch=$(sed -n 's/^[[:space:]]*\.target[[:space:]]\+\([a-z0-9_]*\).*/\1/p' "$f" | head -1)
	"$LINK" --no-stages -o "$base.plain.ptx" "$f" 2> /dev/null
	local earlier=$base.plain.ptx
	for v in $VARIANTS; do
		t=$base.$v.ptx
		flags="--verify -arch=$arch $(difftest_vflags "$v")"
		[ "$v" = unlinked ] && flags=--verify
		# a module that uses what it does not define (hw_globals.ptx) is
		# linked as for ptxas -c
		# shellcheck disable=SC2086
		if ! timeout 300 "$LINK" $flags $open -o "$t" "$f" 2> "$t.err" &&
		   ! { [ -z "$open" ] && grep -q 'undefined reference' "$t.err" && open=--allow-undefined &&
		       timeout 300 "$LINK" $flags $open -o "$t" "$f" 2> "$t.err"; }; then
			echo "$label $v: ptxlink $flags $open failed: $(grep -m1 -E 'error|internal|ir_verify' "$t.err")" >> "$tmp/failed"
			continue
		fi
		grep -q ir_verify "$t.err" &&
			echo "$label $v: ptxlink $flags: $(grep -c ir_verify "$t.err") verifier findings: $(grep -m1 ir_verify "$t.err")" >> "$tmp/failed"
		dup=
		for w in $earlier; do
			cmp -s "$t" "$w" && { dup=1; break; }
		done
		[ -n "$dup" ] && continue
		earlier="$earlier $t"
		if [ -n "$PTXAS" ] && ! timeout 600 "$PTXAS" -arch="$arch" -c "$t" -o /dev/null > "$t.ptxas" 2>&1; then
			echo "$label $v: ptxas rejects the output of ptxlink $flags: $(grep -m1 -i error "$t.ptxas")" >> "$tmp/failed"
		fi
		outs="$outs${outs:+,}$v=$t"
	done
	echo "${outs:-+}"
}

attempt() {  # fill structs int grid file kernel params... -> exit status; the reason on stdout
	local fill=$1 structs=$2 int=$3 grid=$4 f=$5 k=$6 err rc
	# shellcheck disable=SC2046
	err=$(timeout 300 "$RUN" $(args_for "$fill" "$structs" "$int" "$grid" "$k" "${@:7}") "$f" "$k" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 124 ]; then
		echo "timeout"
	else
		printf '%s\n' "$err" | grep -m1 'error:' | sed -E 's/^.*error: (ptxlink-run: )?//'
	fi
	return $rc
}

one() {  # label file roundtrip kernel params... -> a TSV line
	local label=$1 f=$2 rt=$3 k=$4 why rc how first= diff= args=
	shift 4
	for how in "pattern=1 zero 16 2" "zero zero 16 2" "zero ptrs 16 2" "pattern=1 ptrs 16 2" \
		"zero zero 1 2" "zero ptrs 1 2" "zero zero 0 2" "zero ptrs 0 2" "zero ptrs 0 1" \
		"byte=255 zero 16 2" "zero ints 16 2" "zero ints 0 1"; do
		# shellcheck disable=SC2086
		why=$(attempt $how "$f" "$k" "$@")
		rc=$?
		[ -n "$first" ] || first=$why
		[ $rc -eq 3 ] || break
	done
	[ $rc -eq 3 ] && why=$first  # what stopped it with the plain arguments
	[ -z "$why" ] && [ $rc -ne 0 ] && why="exit $rc"
	if [ $rc -eq 0 ]; then
		read -r fill structs int grid <<< "$how"
		why="completed (${fill/=/ } buffers, $structs structs, integers $int, $grid blocks)"
		[ "$rt" = - ] || diff=$(compare $how "$f" "$rt" "$k" "$@")
		# shellcheck disable=SC2086
		args=$(args_for $how "$k" "$@")
	fi
	printf '%s\t%s\t%d\t%s\t%s\t%s\n' "$label" "$k" "$rc" "$why" "$diff" "$args"
}
# Parameter kinds from demangled C++ signatures (c++filt), one line each:
# p (pointer or reference), i (integer), f (floating), c (other).  Template
# kernels say in their demangled signature what --list cannot.
KINDS_AWK='
# Reads demangled C++ signatures, one a line; prints the kind of each
# parameter: p (pointer or reference), i (integer), f (floating), c (other).
function kind(t) {
	gsub(/^ +| +$/, "", t)
	if (t ~ /[*&]( const| volatile)*$/) return "p"
	gsub(/(^| )(const|volatile)( |$)/, " ", t); gsub(/^ +| +$/, "", t)
	if (t ~ /^(signed |unsigned )?(char|short|int|long|long long|__int128)( int)?$/ || t ~ /^(unsigned|signed|bool|size_t|ptrdiff_t|u?int(8|16|32|64)_t)$/) return "i"
	if (t == "float" || t == "double") return "f"
	return "c"
}
{
	s = $0
	n = length(s)
	if (substr(s, n, 1) != ")") { print ""; next }
	depth = 0
	for (i = n; i > 0; i--) {
		ch = substr(s, i, 1)
		if (ch == ")" || ch == ">") depth++
		else if (ch == "(" || ch == "<") { depth--; if (depth == 0) break }
	}
	inner = substr(s, i + 1, n - i - 1)
	out = ""; cur = ""; depth = 0
	for (j = 1; j <= length(inner); j++) {
		ch = substr(inner, j, 1)
		if (ch == "(" || ch == "<") depth++
		if (ch == ")" || ch == ">") depth--
		if (ch == "," && depth == 0) { out = out kind(cur) " "; cur = ""; continue }
		cur = cur ch
	}
	if (cur != "" && cur != "void") out = out kind(cur)
	print out
}

'

# "name params..." lines -> the same, each 64-bit or 32-bit parameter
# marked :p or :i when the demangled signature says which.
annotate() {
	local list
	list=$(cat)
	[ -n "$list" ] || return 0
	if command -v c++filt > /dev/null; then
		paste -d'|' <(printf '%s\n' "$list") \
			<(printf '%s\n' "$list" | cut -d' ' -f1 | c++filt | awk "$KINDS_AWK")
	else
		printf '%s|\n' "$list"
	fi | awk -F'|' '{
		n = split($1, f, " "); m = split($2, k, " "); np = 0
		for (i = 2; i <= n; i++) if (f[i] !~ /^@/) np++
		out = f[1]
		for (i = 2; i <= n; i++) {
			x = f[i]
			if (m == np && x !~ /^@/ && x !~ /:/ && x ~ /^\.[usb](32|64)$/ && (k[i-1] == "p" || k[i-1] == "i"))
				x = x ":" k[i-1]
			out = out " " x
		}
		print out
	}'
}

export -f one attempt args_for compare sweep difftest_vflags
export RUN STEPS BUF tmp

# "label file" per module: corpus files, then each multi-file program linked
# (DIRS: those directories of PTX files instead of the corpus)
inputs() {
	local d dirs
	if [ -n "${DIRS:-}" ]; then
		dirs=$DIRS
	else
		find corpus/ptx -maxdepth 1 -name '*.ptx' | sort | while read -r f; do
			echo "$f $f"
		done
		find corpus/ptx/handwritten -name '*.ptx' | sort | while read -r f; do
			echo "$f $f"
		done
		dirs=$(find corpus/ptx -mindepth 1 -maxdepth 1 -type d ! -name handwritten | sort)
	fi
	for d in $dirs; do
		d=${d%/}
		linked=$tmp/$(echo "$d" | tr / _).ptx
		# linked without stages, so that --diff compares them before and after
		if "$LINK" $NOSTAGES -o "$linked" "$d"/*.ptx 2> "$tmp/link.err" ||
		   "$LINK" $NOSTAGES --strip-debug -o "$linked" "$d"/*.ptx 2> "$tmp/link.err"; then
			echo "$d/ $linked"
		else
			echo "coverage: cannot link $d: $(head -1 "$tmp/link.err")" >&2
		fi
	done
}

inputs | while read -r label f; do
	[ -z "$ONLY" ] || [[ $label =~ $ONLY ]] || continue
	rt=-
	if [ -n "$DIFF" ] && [ -n "$VARIANTS" ]; then
		rt=$(sweep_link "$label" "$f")
	elif [ -n "$DIFF" ]; then
		rt=$tmp/rt.$(echo "$label" | tr '/.' '__').ptx
		# a failed link or a verifier line is a failure, not a module skipped
		if ! "$LINK" --verify $PLAIN -o "$rt" "$f" 2> "$rt.err"; then
			echo "$label: ptxlink --verify $PLAIN failed: $(grep -m1 -E 'error|internal|ir_verify' "$rt.err")" >> "$tmp/failed"
			rt=-
		elif grep -q ir_verify "$rt.err"; then
			echo "$label: ptxlink --verify $PLAIN: $(grep -m1 ir_verify "$rt.err")" >> "$tmp/failed"
		fi
	fi
	"$RUN" --list "$f" 2>/dev/null | annotate | while read -r line; do
		echo "$label $f $rt $line"
	done
done | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ | sort > "$OUT"

total=$(wc -l < "$OUT")
ok=$(awk -F'\t' '$3 == 0' "$OUT" | wc -l)
okz=$(awk -F'\t' '$3 == 0 && $4 !~ /pattern 1 buffers, zero structs, integers 16, 2 blocks/' "$OUT" | wc -l)
pct=$(awk -v a="$ok" -v b="$total" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')
echo "coverage: $ok of $total kernels ran to completion ($pct%)"

# Group the reasons: the unsupported instruction, or the fault's kind.
table=$(awk -F'\t' '$3 != 0 {
	r = $4
	if (r !~ /^unsupported instruction/) { sub(/ 0x[0-9a-f]+.*$/, "", r); sub(/ \([0-9]+ bytes\)$/, "", r) }
	n[r]++
} END { for (r in n) printf "| %d | %s |\n", n[r], r }' "$OUT" | sort -t'|' -k2,2nr -k3)

if [ -n "$DIFF" ]; then
	same=$(awk -F'\t' '$5 ~ /^same/' "$OUT" | wc -l)
	differ=$(awk -F'\t' '$5 ~ /^DIFFERENT/' "$OUT" | wc -l)
	echo "round trip: $same kernels gave the same buffers and printf output after ptxlink, $differ differed"
	awk -F'\t' '$5 ~ /^DIFFERENT/ { print "  " $1 " " $2 ": " $5 }' "$OUT"
	if [ -n "$VARIANTS" ]; then
		runs=$(awk -F'\t' '$5 ~ /^same [0-9]/ { n += substr($5, 6) } END { print n + 0 }' "$OUT")
		nf=$(wc -l < "$tmp/failed")
		echo "sweep: $(wc -w <<< "$VARIANTS") variants ($(echo $VARIANTS)), $runs kernel runs compared" \
			"(an output the same as an earlier one is not run again), $nf link, verifier or ptxas failures"
	else
		nf=$(wc -l < "$tmp/failed")
		echo "round trip: $nf links failed or had verifier findings"
	fi
	sed 's/^/  /' "$tmp/failed"
	[ "$nf" -eq 0 ] || differ=$((differ + nf))
fi

block=$(cat <<END
<!-- coverage:begin (written by tests/difftest/coverage.sh) -->
**$ok of $total corpus kernels ($pct%) run to completion** ($okz of them only on a retry with
other arguments), each launched as 2 blocks of 64 threads (or its \`.reqntid\` shape; 2 clusters
of its \`.reqnctapercluster\` shape) with 4 KiB of dynamic shared memory and a limit of $STEPS
instructions.

| kernels | what stopped them |
|---:|---|
$table
<!-- coverage:end -->
END
)
if [ -z "$DOC" ]; then
	:
elif [ -f "$DOC" ] && grep -q '<!-- coverage:begin' "$DOC"; then
	awk -v block="$block" '
		/<!-- coverage:begin/ { print block; skip = 1; next }
		/<!-- coverage:end/ { skip = 0; next }
		!skip' "$DOC" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
else
	printf '%s\n' "$block" >> "$DOC"
fi
[ -z "$DIFF" ] || [ "$differ" -eq 0 ]
