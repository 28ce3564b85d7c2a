#!/usr/bin/env bash
# Fuzz ptxlink with libFuzzer: four harnesses in tests/fuzz/,
#   parse   parser, verifier and printer (fuzz_parse.c)
#   link    several modules linked (fuzz_link.c)
#   stages  the optimization stages on linked or single modules (fuzz_stages.c)
#   obj     the object reader: host objects, archives, fatbinaries (fuzz_obj.c)
#
#   tools/fuzz.sh [SECONDS] [HARNESS...]
#       each harness for SECONDS (default 30), one after the other; the test
#       command's short run.  Stops a harness at its first finding.
#   tools/fuzz.sh --hours N [--workers W] [HARNESS...]
#       the long run: every harness at once for N hours (N may be a
#       fraction), each with W worker processes (default: the cores shared
#       out, at least 1), going on after a finding; then each corpus is
#       merged (minimized) in place.
#
# Builds build-fuzz with clang (-fsanitize=fuzzer,address,undefined).  The
# seeds (rebuilt on every run in build-fuzz/seeds/HARNESS) are corpus/ptx
# and corpus/ptx-rejected files under 1 MB, tests/fuzz/seeds, and for parse
# tests/bad; for link and stages also each multi-file corpus program and
# tests/link/cases case as one input (its files joined by the separator
# line '//--- next module'), and for stages tests/devirt, tests/printf,
# tests/depot, tests/globalopt and tests/addrprep.  For obj: tests/fuzz/seeds/obj
# (small objects and an archive made by hand, docs/testing.md) and, when
# nvcc is on PATH, tests/obj/*.cu compiled with -dc at code=[compute_80,sm_80],
# sm_80 and lto_80, and an archive of them; its dictionary is obj.dict.
# An input of link starts with one option byte, of stages with two (see
# the harnesses); a seed's bytes give the options its test uses.
# Inputs the fuzzer finds interesting accumulate in build-fuzz/corpus/HARNESS
# across runs.  Inputs are up to 1 MB (-max_len), the size of corpus files.
#
# A finding (crash, sanitizer report, leak, abort on a broken invariant,
# timeout over 10 s, over 2 GB of memory) is saved as
# build-fuzz/artifacts/HARNESS/{crash,leak,timeout,oom}-<sha1>.  Reproduce:
#     build-fuzz/fuzz-HARNESS build-fuzz/artifacts/HARNESS/crash-...
# (FUZZ_DIAG=1 in the environment shows ptxlink's diagnostics; add
# -minimize_crash=1 -runs=10000 to shrink it).  The last lines say how many
# executions each harness ran and what it found; the exit status is non-zero
# after any finding.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
all_harnesses="parse link stages obj"
usage() {
	echo "usage: $0 [SECONDS] [HARNESS...]" >&2
	echo "       $0 --hours N [--workers W] [HARNESS...]   (HARNESS: $all_harnesses)" >&2
	exit 2
}

secs=30 hours= workers=
if [ "${1:-}" = --hours ]; then
	hours=${2:-}
	shift 2 || usage
	case $hours in ''|*[!0-9.]*|*.*.*|.) usage;; esac
	secs=$(awk -v h="$hours" 'BEGIN { s = int(h * 3600); print s < 1 ? 1 : s }')
	if [ "${1:-}" = --workers ]; then
		workers=${2:-}
		shift 2 || usage
		case $workers in ''|*[!0-9]*|0) usage;; esac
	fi
elif [ $# -gt 0 ] && [ "${1#-}" = "$1" ] && [ -z "${1//[0-9]/}" ]; then
	secs=$1
	shift
fi
harnesses=${*:-$all_harnesses}
for h in $harnesses; do
	case " $all_harnesses " in *" $h "*) ;; *) usage;; esac
done
nh=$(echo $harnesses | wc -w)
result() { # passed failed
	echo "fuzz: $1 passed, $2 failed"
	[ "$2" = 0 ]
	exit
}

if ! command -v clang >/dev/null; then
	echo "fuzz: clang not found" >&2
	result 0 "$nh"
fi
mkdir -p "$build"
targets=$(for h in $harnesses; do printf 'fuzz-%s ' "$h"; done)
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DPTXLINK_FUZZ=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/build.log" 2>&1 &&
	cmake --build "$build" --target $targets -j"$(nproc)" >>"$build/build.log" 2>&1 || {
	tail -30 "$build/build.log" >&2
	echo "fuzz: build failed (log: $build/build.log)" >&2
	result 0 "$nh"
}

# ---- seeds ----
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/parse "$seeds"/link "$seeds"/stages "$seeds"/obj
sep='//--- next module'
byte() { printf "\\$(printf %03o "$1")"; }
# join FILE...: the files as one input, the separator line between them
join() {
	local f first=1
	for f; do
		[ $first = 1 ] || printf '\n%s\n' "$sep"
		first=0
		cat "$f"
	done
}
# seed NAME LINK-BYTE STAGE-BYTE FILE...: the modules, for link and stages
# (the stages' link byte also lets printf stay undefined, as the driver does)
seed() {
	local name=$1 lb=$2 sb=$3
	shift 3
	{ byte "$lb"; join "$@"; } >"$seeds/link/$name"
	{ byte $((lb | 32)); byte "$sb"; join "$@"; } >"$seeds/stages/$name"
}
# the link byte of a command line (fuzz.h: fuzz_load)
link_byte() {
	local a v=0
	for a; do
		case $a in
		--allow-undefined) v=$((v | 8));;
		--strip-debug) v=$((v | 16));;
		-arch=sm_80) v=$((v | 1));;
		-arch=sm_90) v=$((v | 2));;
		-arch=sm_86) v=$((v | 4));;
		-arch=*) v=$((v | 6));;
		esac
	done
	echo $v
}
# the stage byte of a command line (fuzz_stages.c)
stage_byte() {
	local a v=0
	for a; do
		case $a in
		--devirt-funnel-max=1) v=$((v | 1));;
		--devirt-funnel-max=2) v=$((v | 2));;
		--devirt-funnel-max=64) v=$((v | 5));;
		-Werror=format) v=$((v | 8));;
		--no-devirt) v=$((v | 16));;
		esac
	done
	echo $v
}
id() { printf '%s' "${1#"$root"/}" | tr '/' '_'; }

# One input, not linked (link byte 64: only the symbol checks, as ptxlink
# does with one input), the whole pipeline.
while IFS= read -r -d '' f; do
	cp "$f" "$seeds/parse/$(id "$f")"
	seed "$(id "$f")" 96 0 "$f"
done < <(find "$root/corpus/ptx" "$root/corpus/ptx-rejected" "$root/tests/fuzz/seeds" \
	-name '*.ptx' -type f -size -1024k -print0)
for f in "$root"/tests/bad/*.ptx; do
	[ -f "$f" ] && cp "$f" "$seeds/parse/$(id "$f")"
done
# Corpus programs: linked for sm_80 (stripped when compiled with -G), as
# tests/link/corpus.sh does; handwritten/ is not a program, but its files
# linked together make an input full of clashes.
for d in "$root"/corpus/ptx/*/; do
	set -- "$d"*.ptx
	[ -f "$1" ] || continue
	lb=1
	grep -q '\.debug_info' "$@" && lb=$((lb | 16))
	seed "$(id "${d%/}")" $lb 0 "$@"
done
# Link cases with their options, the files in the order given.
for c in "$root"/tests/link/cases/*/; do
	[ -f "$c/inputs" ] || continue
	files=()
	while read -r line; do
		case $line in
		@*|'') files=("$c"*.ptx); break;;  # a response file: all of them
		*) files+=("$c$line");;
		esac
	done <"$c/inputs"
	args=()
	[ -f "$c/args" ] && read -r -a args <"$c/args"
	seed "$(id "${c%/}")" "$(link_byte "${args[@]}")" 0 "${files[@]}"
done
# Stage tests, alone, with their options.
for f in "$root"/tests/devirt/*.ptx "$root"/tests/printf/*.ptx "$root"/tests/depot/*.ptx \
	"$root"/tests/globalopt/*.ptx "$root"/tests/addrprep/*.ptx; do
	case $f in *.expect.ptx) continue;; esac
	args=()
	[ -f "${f%.ptx}.flags" ] && read -r -a args <"${f%.ptx}.flags"
	lb=$(( $(link_byte "${args[@]}") | 64 ))
	sb=$(stage_byte "${args[@]}")
	seed "$(id "$f")" $lb "$sb" "$f"
	[ -f "${f%.ptx}.werror.err" ] && seed "$(id "$f").werror" $lb $((sb | 8)) "$f"
	# the pipeline twice, and the funnel at 1 and 64
	seed "$(id "$f").again" $lb $((sb | 96)) "$f"
	seed "$(id "$f").funnel1" $lb $((sb & ~7 | 1)) "$f"
	seed "$(id "$f").funnel64" $lb $((sb & ~7 | 5)) "$f"
	seed "$(id "$f").depot" $lb $((sb | 128)) "$f"
	seed "$(id "$f").addrprep" $lb $((sb | 160)) "$f"
done

# Objects: the hand-made ones, and nvcc's when it is there.
cp "$root"/tests/fuzz/seeds/obj/* "$seeds/obj/"
if PATH=/usr/local/cuda/bin:$PATH command -v nvcc >/dev/null 2>&1; then
	for f in "$root"/tests/obj/*.cu; do
		b=$(basename "$f" .cu)
		for code in '[compute_80,sm_80]' sm_80 lto_80; do
			PATH=/usr/local/cuda/bin:$PATH nvcc -dc -gencode "arch=compute_80,code=$code" "$f" \
				-o "$seeds/obj/$b.${code//[^a-z0-9_]/}.o" >/dev/null 2>&1
		done
	done
	(cd "$seeds/obj" && ar rcs nvcc.a ./*_80.o) >/dev/null 2>&1
else
	echo "fuzz: nvcc not found: obj's seeds are tests/fuzz/seeds/obj only"
fi

# ---- running ----
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
flags=(-max_len=1048576 -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1)
# dict HARNESS: its libFuzzer dictionary
dict() { [ "$1" = obj ] && echo "-dict=$root/tests/fuzz/obj.dict" || echo "-dict=$root/tests/fuzz/ptx.dict"; }
start=$build/.fuzz-start
touch "$start"

# run HARNESS: the short run, in the foreground
run() {
	local h=$1
	"$build/fuzz-$h" "${flags[@]}" "$(dict "$h")" -max_total_time="$secs" -artifact_prefix="$build/artifacts/$h/" \
		"$build/corpus/$h" "$seeds/$h" >"$build/fuzz-$h.log" 2>&1
}
# run_long HARNESS WORKER: one of a harness's workers in the long run: one
# process after another until the time is up, as -jobs would run them but
# going on after a finding (a -jobs job stops at its first and leaves its
# worker idle for the hours left; libFuzzer's -fork mode restarts its
# children every few seconds at first, each time loading inputs up to
# 1 MB: it ran less than half as many inputs in the same time here).  The workers share the corpus
# directory and take in each other's finds every 30 s (-reload).
run_long() {
	local h=$1 w=$2 round=0 left
	while left=$(( end - $(date +%s) )) && [ "$left" -gt 0 ]; do
		round=$((round + 1))
		"$build/fuzz-$h" "${flags[@]}" "$(dict "$h")" -max_total_time="$left" -reload=30 \
			-artifact_prefix="$build/artifacts/$h/" "$build/corpus/$h" "$seeds/$h" \
			>"$build/long/$h-$w-$round.log" 2>&1
	done
}
# execs HARNESS: how many inputs its last run executed
execs() {
	local f n total=0
	for f in "$build/fuzz-$1.log" "$build"/long/"$1"-*.log; do
		[ -f "$f" ] && [ "$f" -nt "$start" ] || continue
		n=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$f" | tail -n 1)
		total=$((total + ${n:-0}))
	done
	echo $total
}
# logs HARNESS: its logs of this run
logs() {
	local f
	for f in "$build/fuzz-$1.log" "$build"/long/"$1"-*.log; do
		[ -f "$f" ] && [ "$f" -nt "$start" ] && echo "$f"
	done
}

for h in $harnesses; do
	mkdir -p "$build/corpus/$h" "$build/artifacts/$h"
done
if [ -n "$hours" ]; then
	[ -n "$workers" ] || workers=$(( $(nproc) / nh ))
	[ "$workers" -ge 1 ] || workers=1
	echo "fuzz: $harnesses for ${hours}h (${secs}s), $workers worker(s) each"
	rm -rf "$build/long"
	mkdir -p "$build/long"
	end=$(( $(date +%s) + secs ))
	pids=()
	for h in $harnesses; do
		for w in $(seq "$workers"); do
			run_long "$h" "$w" &
			pids+=($!)
		done
	done
	wait "${pids[@]}"
	for h in $harnesses; do
		echo "fuzz: merging the $h corpus"
		rm -rf "$build/corpus/$h.merged"
		mkdir -p "$build/corpus/$h.merged"
		if "$build/fuzz-$h" -merge=1 "${flags[@]}" "$(dict "$h")" "$build/corpus/$h.merged" "$build/corpus/$h" \
			>"$build/fuzz-$h.merge.log" 2>&1; then
			rm -rf "$build/corpus/$h"
			mv "$build/corpus/$h.merged" "$build/corpus/$h"
		else
			echo "fuzz: merging $h failed (log: $build/fuzz-$h.merge.log); corpus kept" >&2
		fi
	done
else
	for h in $harnesses; do
		echo "fuzz: $h, $(ls "$seeds/$h" | wc -l) seeds, corpus $(ls "$build/corpus/$h" | wc -l) inputs, ${secs}s"
		run "$h"
	done
fi

# ---- the account ----
passed=0 failed=0 total=0
for h in $harnesses; do
	n=$(execs "$h")
	n=${n:-0}
	total=$((total + n))
	found=$(find "$build/artifacts/$h" -type f -newer "$start" | sort)
	hlogs=$(logs "$h")
	if [ -z "$found" ] && { [ -z "$hlogs" ] || ! grep -q -a -E '^==[0-9]+==ERROR|^SUMMARY: ' $hlogs; }; then
		echo "fuzz: $h: $n executions, no finding"
		passed=$((passed + 1))
		continue
	fi
	failed=$((failed + 1))
	echo "fuzz: $h: $n executions, $(echo "$found" | grep -c .) finding(s) (logs: $(echo $hlogs))"
	grep -h -a -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|^fuzz_|internal error|SUMMARY' \
		$hlogs | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    /'
	for f in $found; do
		echo "    reproduce: build-fuzz/fuzz-$h ${f#"$root"/}"
	done
done
echo "fuzz: $total executions in all"
result $passed $failed
