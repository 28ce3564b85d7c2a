#!/usr/bin/env bash
# Round trip over the corpus: for every PTX file, ptxlink's output must be
# accepted by ptxas and give the same machine code as the input
# (cubin-cmp), and printing must be idempotent: print(parse(out)) == out.
# With ROUNDTRIP_NO_PTXAS=1 only the idempotence half runs (sanitizer builds);
# ROUNDTRIP_KEEP=DIR keeps the outputs there; ROUNDTRIP_VERBOSE=1 lists
# every file.  A cubin pair counts as "identical" when cmp says so, and as
# "same code" when only what follows the PTX text's layout differs (see
# tools/cubin-cmp/cubin-cmp.c: files with .loc embed their own PTX text).
set -u
ptxlink=$1 cubincmp=$2 corpus=$3
export PATH=/usr/local/cuda/bin:$PATH
use_ptxas=1
if [ "${ROUNDTRIP_NO_PTXAS:-0}" = 1 ]; then
	use_ptxas=0
elif ! command -v ptxas >/dev/null; then
	echo "SKIPPED: ptxas not found (install the CUDA toolkit); the round trip needs it"
	exit 77
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

one() {
	f=$1; id=$(echo "$f" | tr '/' '_')
	out=$work/$id.out.ptx out2=$work/$id.out2.ptx
	"$ptxlink" --no-stages --verify "$f" -o "$out" 2>"$work/$id.err" || { echo "FAIL parse $f: $(head -3 "$work/$id.err")"; return 1; }
	"$ptxlink" --no-stages --verify "$out" -o "$out2" 2>"$work/$id.err" || { echo "FAIL reparse $f: $(head -3 "$work/$id.err")"; return 1; }
	cmp -s "$out" "$out2" || { echo "FAIL idempotence $f"; return 1; }
	# corpus/ptx-rejected holds PTX that ptxas refuses on purpose (residual
	# printf calls): only the parse/print half applies to it.
	if [ $use_ptxas = 1 ] && [ "${f#*/ptx-rejected/}" = "$f" ]; then
		arch=$(awk '/^[ \t]*\.target/{gsub(/[,;]/," ");print $2;exit}' "$f")
		ptxas -arch="$arch" -c "$f" -o "$work/$id.in.cubin" 2>/dev/null || { echo "FAIL ptxas rejects the input $f"; return 1; }
		ptxas -arch="$arch" -c "$out" -o "$work/$id.out.cubin" 2>"$work/$id.err" || { echo "FAIL ptxas rejects the output of $f: $(head -3 "$work/$id.err")"; return 1; }
		if cmp -s "$work/$id.in.cubin" "$work/$id.out.cubin"; then
			how="cubin identical"
		else
			"$cubincmp" "$work/$id.in.cubin" "$work/$id.out.cubin" 2>"$work/$id.err" || { echo "FAIL different SASS for $f: $(cat "$work/$id.err")"; return 1; }
			how="same code, layout-only sections differ"
		fi
	else
		how="reparsed identically"
	fi
	[ -z "${ROUNDTRIP_KEEP:-}" ] || cp "$out" "$ROUNDTRIP_KEEP/$id"
	echo "ok $f ($(stat -c %s "$f") bytes: $how)"
}
export -f one; export ptxlink cubincmp work use_ptxas

files=$(find "$corpus/ptx" "$corpus/ptx-rejected" -name '*.ptx' 2>/dev/null | sort)
[ -n "$files" ] || { echo "FAIL: no corpus files under $corpus/ptx"; exit 1; }
total=$(printf '%s\n' $files | wc -l)
# Each file's line as it finishes (ROUNDTRIP_VERBOSE=1: every one, with
# how far the run is; else the failures), all kept for the counts.
printf '%s\n' $files | xargs -P "$(nproc)" -I{} bash -c 'one "$@"' _ {} |
	awk -v total="$total" -v verbose="${ROUNDTRIP_VERBOSE:-0}" '
		{ print > "/dev/stderr" }
		verbose == 1 { printf "[%d/%d] %s\n", NR, total, $0; fflush(); next }
		!/^ok / { print; fflush() }' 2>"$work/results"
results=$(cat "$work/results")
pass=$(echo "$results" | grep -c '^ok ')
fail=$(echo "$results" | grep -c '^FAIL')
same=$(echo "$results" | grep -c 'cubin identical)')
cubins=$(echo "$results" | grep -c 'cubin identical)\|same code')
reparsed=$(echo "$results" | grep -c 'reparsed identically)')
[ $use_ptxas = 0 ] || echo "roundtrip: of $pass passed, $cubins compiled by ptxas to the same machine code ($same byte-identical cubins, $((cubins - same)) identical but for layout-derived sections), $reparsed checked by parse and print alone (ptxas rejects them as inputs)"
echo "roundtrip: $total files: $pass passed, $fail failed"
[ $((pass + fail)) = "$total" ] || { echo "roundtrip: $((total - pass - fail)) files gave no result"; exit 1; }
[ "$fail" = 0 ]
