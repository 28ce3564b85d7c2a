#!/usr/bin/env bash
# Differential testing of inlining (stages/inline.c) on generated CUDA.
#
#   tests/difftest/difftest-calls.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                           [--fail-dir DIR] [--no-clang]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10): tests/difftest/gen-calls.py
# writes a program of 2-4 files whose kernels call __device__ functions
# across files (structs by value and by reference, several returns, calls
# nested 1-5 deep, in loops and divergent branches, callees with local
# arrays, recursion, __noinline__).  It is built five ways: nvcc -rdc=true
# -O3 per file (nvcc-rdc), the same with -lineinfo (nvcc-lineinfo) and
# with -G (nvcc-G), nvcc -O3 whole-program on one file that includes them
# all (nvcc-whole), and clang -O2 -fgpu-rdc per file (clang).  Each build
# is linked by ptxlink -arch=sm_80 with --inline=never (the baseline) and
# the variants
#
#   auto     --inline=auto                      always  --inline=always
#   t0       --inline=auto --inline-threshold=0
#   tdef     --inline=auto --inline-threshold=D (D the default, read from ptxlink --help)
#   thuge    --inline=auto --inline-threshold=100000
#
# each with --verify --stats; ptxas -arch=sm_80 must accept every output,
# and every kernel runs on the interpreter on the baseline and on each
# variant (tests/difftest/difftest.sh) in three launch shapes (a warp; two
# blocks of 48; a 2x2 grid of 8x4x2 blocks), each with its own data and
# loop count.  A variant whose output is byte for byte an earlier one's
# (the baseline's, or another variant's) is not run again: it is counted
# as identical.  The builds' baseline runs must agree too: a disagreement
# means the generator wrote undefined behaviour (or a compiler or the
# interpreter is wrong), and fails the seed as well, except nvcc -O3's
# known miscompile (difftest_known below; tests/difftest/known/), which
# is logged as KNOWN and counted apart.
#
# Each seed prints one line with the calls each build's variants inlined
# (from --stats).  A failing seed (a difference, a ptxlink or ptxas
# failure, a source that does not compile) is saved with its sources, PTX,
# outputs and commands in <fail-dir>/seed-S (default:
# difftest-calls-fail beside the ptxlink binary), and the run goes on.
# The end is, per variant and per build, the runs compared, the
# differences and the calls inlined, the reasons calls were left under
# --inline=always, and
#
#   difftest-calls: P seeds, NK kernels, K kernel runs compared, D differences
#   N passed, N failed
#
# and the exit status is 1 on any failure.  PTXLINK and PTXLINK_RUN name
# the binaries (default build/ptxlink and ptxlink-run beside it).  Exit 77
# (skipped) when nvcc or ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
difftest_options difftest-calls '2,48p' "$@"

difftest_setup difftest-calls difftest-calls-fail

COMPILERS="nvcc-rdc nvcc-whole nvcc-lineinfo nvcc-G"
[ -n "$CLANG" ] && COMPILERS="$COMPILERS clang"
VARIANTS="auto always t0 tdef thuge"
# the default threshold, as the help says it
DEFAULT_T=$("$PTXLINK" --help 2>&1 | sed -n '/--inline-threshold=N/,/default/s/.*(default \([0-9][0-9]*\)).*/\1/p')
if [ -z "$DEFAULT_T" ]; then
	echo "difftest-calls: no default --inline-threshold in '$PTXLINK --help'" >&2
	exit 2
fi
# the launches, each with its own data and loop count n (SHAPE1.. are read
# as ${!shape}); out gets W words for each of at most 256 threads
# shellcheck disable=SC2034
SHAPE1="--grid 1 --block 32 --arg buf:4096:pattern=1 --arg u32:3"
# shellcheck disable=SC2034
SHAPE2="--grid 2 --block 48 --arg buf:4096:pattern=2 --arg u32:8"
# shellcheck disable=SC2034
SHAPE3="--grid 2,2 --block 8,4,2 --arg buf:4096:pattern=3 --arg u32:0"
NSHAPES=3
STEPS="--max-steps 50000000"

# flags VARIANT: ptxlink's options for it
flags() {
	case $1 in
	never) echo --inline=never ;;
	auto | always) echo "--inline=$1" ;;
	t0) echo --inline=auto --inline-threshold=0 ;;
	tdef) echo "--inline=auto --inline-threshold=$DEFAULT_T" ;;
	thuge) echo --inline=auto --inline-threshold=100000 ;;
	esac
}

# compile DIR BUILD: DIR/src/*.cu to DIR/BUILD/*.ptx; the messages in
# DIR/BUILD/compile.err.  BUILD-O1 (nvcc-rdc-O1 ...) is BUILD with nvcc's
# optimizer at -O1 (-Xcicc -O1), for difftest_known.
compile() {
	local d=$1 c=$2 f opt b=${2%-O1} cicc=
	[ "$b" != "$c" ] && cicc="-Xcicc -O1"
	mkdir -p "$d/$c"
	case $b in
	nvcc-whole)
		# shellcheck disable=SC2086
		(cd "$d/src" && for f in f[0-9]*.cu; do echo "#include \"$f\""; done > all.cu &&
			$limit nvcc -arch=sm_80 --ptx -O3 $cicc -w all.cu -o "../$c/all.ptx") ;;
	nvcc-*)
		opt="-O3 $cicc"
		[ "$b" = nvcc-lineinfo ] && opt="-O3 $cicc -lineinfo"
		[ "$b" = nvcc-G ] && opt=-G
		for f in "$d"/src/f[0-9]*.cu; do
			f=$(basename "$f" .cu)
			# shellcheck disable=SC2086
			(cd "$d/src" && $limit nvcc -arch=sm_80 -rdc=true --ptx $opt -w "$f.cu" -o "../$c/$f.ptx") || return 1
		done ;;
	clang)
		for f in "$d"/src/f[0-9]*.cu; do
			f=$(basename "$f" .cu)
			(cd "$d/src" && $limit "$CLANG" -x cuda --cuda-gpu-arch=sm_80 --cuda-device-only \
				-nocudainc --cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -w -O2 -S \
				-fgpu-rdc -DPTXLINK_CLANG -I"$ROOT/corpus/src" "$f.cu" -o "../$c/$f.ptx") || return 1
		done ;;
	esac > "$d/$c/compile.err" 2>&1
}

# inline_stat FILE: "inlined sites" from --stats
inline_stat() {
	awk '/^inline: [0-9]+ direct call sites/ { s = $2 }
	     /^inline: +[0-9]+ inlined/ { i = $2 }
	     END { print i + 0, s + 0 }' "$1"
}

# link DIR BUILD VARIANT: ptxlink and ptxas (not again on an output the
# same as an earlier variant's: same names it)
link() {
	local earlier=never w
	for w in $VARIANTS; do
		[ "$w" = "$3" ] && break
		earlier="$earlier $w"
	done
	[ "$3" = never ] && earlier=
	# shellcheck disable=SC2086
	difftest_link "$1" "$2" "$3" "$earlier" "--verify -arch=sm_80 $(flags "$3") --stats" $ins
}

# check DIR BUILD: link every variant, ptxas each, difftest each kernel
# in each shape against the baseline; DIR/BUILD/stat gets per variant
# "compared differences identical inlined sites"
check() {
	local d=$1 c=$2 v k w n shape ins
	local -A cmpd=() difs=() ident=() skip=()
	ins=$(cd "$d/$c" && echo *.ptx)
	link "$d" "$c" never || return
	for v in $VARIANTS; do
		cmpd[$v]=0 difs[$v]=0 ident[$v]=0 skip[$v]=1
		link "$d" "$c" "$v" || continue
		[ -n "$same" ] || skip[$v]=0
	done
	while read -r k w; do
		for ((n = 1; n <= NSHAPES; n++)); do
			shape="SHAPE$n"
			local launch="--arg buf:$((256 * w * 4)):zero ${!shape} $STEPS"
			# the baseline's output, for the builds' agreement
			# shellcheck disable=SC2086
			"$PTXLINK_RUN" "$d/$c/never.ptx" "$k" --dump --printf-by-thread $launch \
				> "$d/$c/$k.$n.out" 2>&1
			for v in $VARIANTS; do
				[ -f "$d/$c/$v.ptx" ] || continue
				if [ "${skip[$v]}" = 1 ]; then
					ident[$v]=$((ident[$v] + 1))
					continue
				fi
				# shellcheck disable=SC2086
				difftest_compare "$d" "$c" never "$v" "$k" "shape$n" $launch
				case $? in
				0) cmpd[$v]=$((cmpd[$v] + 1)) ;;
				1) cmpd[$v]=$((cmpd[$v] + 1)) difs[$v]=$((difs[$v] + 1)) ;;
				esac
			done
		done
	done < <(sed -n 's/^kernel //p' "$d/src/manifest")
	for v in $VARIANTS; do
		echo "${cmpd[$v]} ${difs[$v]} ${ident[$v]}" \
			"$([ -f "$d/$c/$v.link.err" ] && inline_stat "$d/$c/$v.link.err" || echo 0 0)"
	done | tr '\n' ' ' > "$d/$c/stat"
}

# difftest_known DIR K.N: whether the builds' disagreement on kernel K in
# shape N is nvcc's known -O3 miscompile, two live local arrays given the
# same local memory (tests/difftest/known/nvcc-local-overlap.cu): nvcc-G
# and clang agree, each build that differs from them is an nvcc -O3 one,
# and that build rebuilt with -Xcicc -O1 (in DIR/BUILD-O1) agrees with
# them.  Logs it as KNOWN.
difftest_known() {
	local d=$1 f=$2.out k=${2%.*} n=${2##*.} c odd='' w shape ins
	[ -s "$d/nvcc-G/$f" ] || return 1
	if [ -n "$CLANG" ]; then
		cmp -s "$d/clang/$f" "$d/nvcc-G/$f" || return 1
	fi
	for c in nvcc-rdc nvcc-whole nvcc-lineinfo; do
		cmp -s "$d/$c/$f" "$d/nvcc-G/$f" || odd="$odd $c"
	done
	[ -n "$odd" ] || return 1
	w=$(sed -n "s/^kernel $k //p" "$d/src/manifest")
	shape="SHAPE$n"
	for c in $odd; do
		if [ ! -f "$d/$c-O1/never.ptx" ]; then
			compile "$d" "$c-O1" || return 1
			ins=$(cd "$d/$c-O1" && echo ./*.ptx)
			# shellcheck disable=SC2086
			(cd "$d/$c-O1" && $limit "$PTXLINK" -arch=sm_80 --inline=never -o never.ptx $ins) \
				> "$d/$c-O1/never.link.err" 2>&1 || return 1
		fi
		# shellcheck disable=SC2086
		"$PTXLINK_RUN" "$d/$c-O1/never.ptx" "$k" --dump --printf-by-thread \
			--arg "buf:$((256 * w * 4)):zero" ${!shape} $STEPS > "$d/$c-O1/$f" 2>&1
		cmp -s "$d/$c-O1/$f" "$d/nvcc-G/$f" || return 1
	done
	echo "KNOWN $2: the output of$odd differs from nvcc-G${CLANG:+ and clang} (not at -Xcicc -O1):" \
		"nvcc -O3 gives two live local arrays the same memory (tests/difftest/known/nvcc-local-overlap.cu)" >> "$d/log"
}

# one SEED: the whole pipeline for one program, in $work/seed-SEED
one() {
	local s=$1 d=$work/seed-$1 t0=$SECONDS c v i line=''
	local compared=0 diffs=0 notcmp=0 lfail=0 pfail=0 rfail=0 cfail=0 ubfail=0 known=0 nk st
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/log"
	: > "$d/cmds"
	if ! python3 "$ROOT/tests/difftest/gen-calls.py" "$s" -o "$d/src" >> "$d/log" 2>&1; then
		echo "FAIL gen-calls.py failed" >> "$d/log"
		cfail=1
	fi
	nk=$(grep -c '^kernel ' "$d/src/manifest" 2>/dev/null)
	for c in $COMPILERS; do
		[ $cfail = 0 ] || break
		if ! compile "$d" "$c"; then
			echo "FAIL $c does not compile the program: $(grep -m1 error "$d/$c/compile.err")" >> "$d/log"
			cfail=$((cfail + 1))
			continue
		fi
		check "$d" "$c"
		if [ -f "$d/$c/stat" ]; then
			read -r -a st < "$d/$c/stat"
			line="$line, $c "
			for ((i = 3; i < ${#st[@]}; i += 5)); do
				line="$line${st[i]}$([ $((i + 5)) -lt ${#st[@]} ] && echo /)"
			done
			line="$line of ${st[4]}"
		fi
	done
	[ $cfail = 0 ] && difftest_agree "$d"
	local status=pass
	[ $((diffs + lfail + pfail + rfail + cfail + ubfail)) -gt 0 ] && status=fail
	echo "$status $compared $diffs $notcmp $lfail $pfail $rfail $cfail $ubfail ${nk:-0} $known" > "$d/counts"
	{
		echo "seed $s: $status, $(grep -c '^file ' "$d/src/manifest" 2>/dev/null) files, ${nk:-0} kernels," \
			"$compared compared, $diffs differences, $notcmp not compared, $((SECONDS - t0)) s;" \
			"calls inlined (${VARIANTS// //})$line"
		grep -E '^(FAIL|KNOWN)' "$d/log" | head -8 | sed 's/^/  /'
	} > "$d/summary"
	difftest_keep_failure "$s" "$status" gen-calls.py "*.ptx, never.ptx and a PTX per variant" src
	cat "$d/summary"
}

t0=$SECONDS
difftest_run_seeds

difftest_tally
echo "difftest-calls: $N not compared (both runs stopped the same way), $L ptxlink failures," \
	"$X ptxas rejections, $R interpreter errors, $C sources that did not compile," \
	"$U build disagreements, $KN known nvcc miscompiles; $((SECONDS - t0)) s"
i=0
for v in $VARIANTS; do
	echo "difftest-calls: $v ($(flags "$v")): ${tot[all.$i]:-0} runs compared," \
		"${tot[all.$((i + 1))]:-0} differences, ${tot[all.$((i + 2))]:-0} identical to an earlier output;" \
		"${tot[all.$((i + 3))]:-0} of ${tot[all.$((i + 4))]:-0} call sites inlined"
	i=$((i + 5))
done
for c in $COMPILERS; do
	line=
	i=0
	for v in $VARIANTS; do
		line="$line${line:+, }$v ${tot[$c.$((i + 3))]:-0}"
		i=$((i + 5))
	done
	echo "difftest-calls: $c: calls inlined $line of ${tot[$c.4]:-0} sites;" \
		"$((${tot[$c.0]:-0} + ${tot[$c.5]:-0} + ${tot[$c.10]:-0} + ${tot[$c.15]:-0} + ${tot[$c.20]:-0}))" \
		"runs compared"
done
# why calls were left under --inline=always, over every build and seed
for ((s = seed; s < seed + count; s++)); do
	cat "$work/seed-$s"/*/always.link.err 2>/dev/null
done | awk '/^inline: +[0-9]+: / { n = $2; sub(/^inline: +[0-9]+: /, ""); left[$0] += n }
	    END { for (w in left) printf "difftest-calls: always left %d: %s\n", left[w], w }' | sort -t: -k2
[ $fail -gt 0 ] && echo "difftest-calls: reproducers in $faildir"
echo "difftest-calls: $P seeds, $NK kernels, $K kernel runs compared, $D differences"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
