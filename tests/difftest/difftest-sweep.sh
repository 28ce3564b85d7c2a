#!/usr/bin/env bash
# The wide differential sweep: every generator's programs built every way
# the front ends build them, linked at every value of every stage option.
#
#   tests/difftest/difftest-sweep.sh [--seed S] [--count N] [--jobs J] [--keep DIR]
#                 [--fail-dir DIR] [--no-clang] [--gen G,G...]
#                 [--builds B,B...] [--variants V,V...]
#
# For each seed S, S+1, ... S+N-1 (default 1 and 10) and each generator
# (--gen, default all five: programs calls depot globalopt addrprep, the
# generators of the other difftest-*.sh scripts) the program is built
#
#   nvcc-O3        nvcc -O3                 nvcc-O0   nvcc -Xcicc -O0
#   nvcc-G         nvcc -G                  nvcc-G-strip  the same PTX, every link --strip-debug
#   nvcc-lineinfo  nvcc -O3 -lineinfo       clang-O2  clang -O2      clang-O0  clang -O0
#
# (-rdc=true / -fgpu-rdc for the multi-file generators, programs and calls),
# linked by ptxlink --verify -arch=sm_80 with --no-stages (the baseline)
# and with each variant below, every output through ptxas, and every
# kernel run on the interpreter on the baseline and on each variant's
# output in the generator's launches (one or two).  Where the baseline
# has -G's DWARF, each output must keep it and pass ptxas -g.  An output
# byte for byte the same as the baseline's or an earlier variant's is not
# put through ptxas or run again: it counts as identical.
#
#   default      (nothing)                 O0 O1 O2  -O0, -O1, -O2
#   nodevirt     --no-devirt               fm1 fm2 fm64  --devirt-funnel-max=N
#   never always --inline=never, =always   t0 thuge  --inline-threshold=0, 100000
#   noglobalopt  --no-globalopt            internalize  --internalize
#   noipo        --no-ipo                  ipoconst  --ipo-constants
#   nobyvalue    --no-ipo-byvalue
#   nodepot      --no-depot                nosroa    --no-sroa
#   addrprep     --addrprep (all four)     narrow widen fold sink  --addrprep=X
#   noaddrprep   --no-addrprep             max  --inline=always --ipo-constants
#                                               --internalize --addrprep
#   locals       --opt-locals              localsalways  --opt-locals --inline=always
#   unlinked     one input without -arch (single-file builds only)
#
# A failure is: a kernel whose runs differ (buffers, printf stream, or how
# it stopped), a ptxlink failure, any "ir_verify" line in ptxlink's
# messages (the verifier's findings are failures, not warnings), ptxas
# rejecting an output, a build that does not compile, or the builds'
# baselines disagreeing on a kernel (undefined behaviour in the source,
# or a compiler or the interpreter wrong), except where only nvcc's -O3
# builds differ from all the others: nvcc 13's known local-memory overlap
# (tests/difftest/known/), logged KNOWN.  A failing program is saved with
# its sources, PTX, outputs and commands in <fail-dir>/GEN-seed-S
# (default: difftest-sweep-fail beside the ptxlink binary).
#
# The end is, per build and per variant, the runs compared, the
# differences and the outputs identical to an earlier one, and
#
#   difftest-sweep: P programs, B builds, NK kernels, K kernel runs compared, D differences,
#     V links with verifier findings
#   N passed, N failed
#
# About 1-3 minutes a program on one core.  Exit 1 on any failure, 77
# (skipped) without nvcc or ptxas.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"
GENS="programs calls depot globalopt addrprep"
BUILDS="nvcc-O3 nvcc-O0 nvcc-G nvcc-G-strip nvcc-lineinfo clang-O2 clang-O0"
VARIANTS="$DIFFTEST_VARIANTS unlinked"
difftest_option() {
	case $1 in
	--gen) GENS=${2//,/ } ;;
	--builds) BUILDS=${2//,/ } ;;
	--variants) VARIANTS=${2//,/ } ;;
	*) return 0 ;;
	esac
	return 2
}
difftest_options difftest-sweep '2,56p' "$@"
difftest_setup difftest-sweep difftest-sweep-fail
[ -n "$CLANG" ] || BUILDS=$(tr ' ' '\n' <<< "$BUILDS" | grep -v '^clang' | tr '\n' ' ')
STEPS="--max-steps 50000000"

for v in $VARIANTS; do difftest_vflags "$v" > /dev/null || exit 2; done

# generate GEN SEED DIR: the program in DIR/src, its launches in
# DIR/launches ("KERNEL TAG ptxlink-run options" lines)
generate() {
	local g=$1 s=$2 d=$3 k w i maxt
	mkdir -p "$d/src"
	case $g in
	programs)
		python3 "$ROOT/tests/difftest/gen-programs.py" --seed "$s" --out "$d/src" || return 1
		sed -n 's/^kernel \([^ ]*\) /\1 l1 /p' "$d/src/manifest" ;;
	calls)
		python3 "$ROOT/tests/difftest/gen-calls.py" "$s" -o "$d/src" || return 1
		# as difftest-calls.sh's first and third shapes
		sed -n 's/^kernel //p' "$d/src/manifest" | while read -r k w; do
			echo "$k l1 --arg buf:$((256 * w * 4)):zero --grid 1 --block 32 --arg buf:4096:pattern=1 --arg u32:3"
			echo "$k l2 --arg buf:$((256 * w * 4)):zero --grid 2,2 --block 8,4,2 --arg buf:4096:pattern=3 --arg u32:0"
		done ;;
	depot | globalopt)
		python3 "$ROOT/tests/difftest/gen-$g.py" "$s" -o "$d/src/prog.cu" || return 1
		for k in $(sed -n 's|^// kernels: ||p' "$d/src/prog.cu"); do
			echo "$k l1 --grid 2 --block 32 --arg buf:1024:pattern=1 --arg buf:256:zero --arg s32:3 --arg s32:5"
			echo "$k l2 --grid 2 --block 32 --arg buf:1024:pattern=2 --arg buf:256:zero --arg s32:0 --arg s32:4"
		done ;;
	addrprep)
		python3 "$ROOT/tests/difftest/gen-addrprep.py" "$s" -o "$d/src/prog.cu" || return 1
		i=0
		for k in $(sed -n 's|^// kernels: ||p' "$d/src/prog.cu"); do
			i=$((i + 1))
			maxt=$(sed -n 's|^// maxthreads: ||p' "$d/src/prog.cu" | cut -d' ' -f$i)
			echo "$k l1 --grid 2 --block 32 --arg buf:8192:pattern=1 --arg buf:24576:zero --arg s32:3 --arg s32:5"
			# the second launch's 64 threads only where __launch_bounds__ allow
			if [ "${maxt:-1024}" -ge 64 ]; then
				echo "$k l2 --grid 3,2 --block 8,4,2 --arg buf:8192:pattern=2 --arg buf:24576:zero --arg s32:-2 --arg s32:12"
			fi
		done ;;
	esac > "$d/launches"
}

# compile DIR BUILD: DIR/src/*.cu to DIR/BUILD/*.ptx (-rdc where there
# are several files); the messages in DIR/BUILD/compile.err
compile() {
	local d=$1 c=$2 f rdc='' crdc='' opt
	mkdir -p "$d/$c"
	[ -f "$d/src/prog.cu" ] || { rdc=-rdc=true; crdc=-fgpu-rdc; }
	for f in "$d"/src/*.cu; do
		f=$(basename "$f" .cu)
		case $c in
		nvcc-*)
			case $c in
			nvcc-O3) opt=-O3 ;;
			nvcc-O0) opt="-Xcicc -O0" ;;
			nvcc-G | nvcc-G-strip) opt=-G ;;
			nvcc-lineinfo) opt="-O3 -lineinfo" ;;
			esac
			# shellcheck disable=SC2086
			(cd "$d/src" && $limit nvcc -arch=sm_80 $rdc --ptx $opt -w "$f.cu" -o "../$c/$f.ptx") ;;
		clang-*)
			# shellcheck disable=SC2086
			(cd "$d/src" && $limit "$CLANG" -x cuda --cuda-gpu-arch=sm_80 --cuda-device-only \
				-nocudainc --cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -w -${c#clang-} -S \
				$crdc -DPTXLINK_CLANG -I"$ROOT/corpus/src" "$f.cu" -o "../$c/$f.ptx") ;;
		esac || return 1
	done > "$d/$c/compile.err" 2>&1
}

# run DIR BUILD NAME KERNEL TAG LAUNCH...: one interpreter run into
# DIR/BUILD/KERNEL.TAG.NAME.{out,err,rc}
run() {
	local d=$1 c=$2 name=$3 k=$4 tag=$5 o
	shift 5
	o=$d/$c/$k.$tag.$name
	# shellcheck disable=SC2086
	$limit "$PTXLINK_RUN" "$d/$c/$name.ptx" "$k" --dump --printf-by-thread $STEPS "$@" > "$o.out" 2> "$o.err"
	echo $? > "$o.rc"
	sed -i -E 's/^[^ ]*:[0-9]+:[0-9]+: //; s/^[^ ]*\.ptx: //' "$o.err"
}

# same DIR BUILD KERNEL TAG NAME: NAME's run the same as the baseline's
same_run() {
	local p=$1/$2/$3.$4
	cmp -s "$p.plain.rc" "$p.$5.rc" && cmp -s "$p.plain.out" "$p.$5.out" &&
		{ [ "$(cat "$p.plain.rc")" = 0 ] || cmp -s "$p.plain.err" "$p.$5.err"; }
}

# dwarf_kept DIR BUILD NAME: where the baseline has -G's DWARF, NAME.ptx
# keeps it, and ptxas -g accepts it (counted in pfail)
dwarf_kept() {
	local d=$1 c=$2 v=$3
	grep -q '^[[:space:]]*\.section[[:space:]]*\.debug_info' "$d/$c/plain.ptx" || return 0
	if ! grep -q '^[[:space:]]*\.section[[:space:]]*\.debug_info' "$d/$c/$v.ptx"; then
		echo "FAIL $c $v: the -G DWARF (.debug_info) is gone after the stages" >> "$d/log"
		pfail=$((pfail + 1))
	elif ! $limit ptxas -arch=sm_80 -g "$d/$c/$v.ptx" -o /dev/null > "$d/$c/$v.ptxas-g.err" 2>&1; then
		echo "FAIL $c $v: ptxas -g rejects the output: $(head -1 "$d/$c/$v.ptxas-g.err")" >> "$d/log"
		echo "ptxas -arch=sm_80 -g $c/$v.ptx -o /dev/null" >> "$d/cmds"
		pfail=$((pfail + 1))
	fi
}

# check DIR BUILD: the baseline and every variant linked, ptxas'd and run;
# DIR/BUILD/stat gets per variant "compared differences identical"
check() {
	local d=$1 c=$2 v k tag launch ins base="--verify -arch=sm_80" earlier=plain n
	local -A cmpd=() difs=() ident=() skip=()
	ins=$(cd "$d/$c" && echo ./*.ptx)
	[ "$c" = nvcc-G-strip ] && base="$base --strip-debug"
	# shellcheck disable=SC2086
	difftest_link "$d" "$c" plain "" "$base --no-stages" $ins || return
	for v in $VARIANTS; do
		cmpd[$v]=0 difs[$v]=0 ident[$v]=0 skip[$v]=1
		if [ "$v" = unlinked ]; then
			# one input, not linked (--strip-debug links it)
			{ [ "$(wc -w <<< "$ins")" = 1 ] && [ "$c" != nvcc-G-strip ]; } || continue
			# shellcheck disable=SC2086
			difftest_link "$d" "$c" "$v" "$earlier" --verify $ins || continue
		else
			# shellcheck disable=SC2086
			difftest_link "$d" "$c" "$v" "$earlier" "$base $(difftest_vflags "$v")" $ins || continue
		fi
		[ -n "$same" ] || { skip[$v]=0; dwarf_kept "$d" "$c" "$v"; }
		earlier="$earlier $v"
	done
	while read -r k tag launch; do
		# shellcheck disable=SC2086
		run "$d" "$c" plain "$k" "$tag" $launch
		n=$d/$c/$k.$tag.plain
		[ "$(cat "$n.rc")" = 0 ] && cp "$n.out" "$d/$c/$k.$tag.out"
		for v in $VARIANTS; do
			[ -f "$d/$c/$v.ptx" ] || continue
			if [ "${skip[$v]}" = 1 ]; then
				ident[$v]=$((ident[$v] + 1))
				continue
			fi
			# shellcheck disable=SC2086
			run "$d" "$c" "$v" "$k" "$tag" $launch
			if same_run "$d" "$c" "$k" "$tag" "$v"; then
				if [ "$(cat "$n.rc")" = 0 ]; then
					compared=$((compared + 1)) cmpd[$v]=$((cmpd[$v] + 1))
				else
					notcmp=$((notcmp + 1))
				fi
				rm -f "$d/$c/$k.$tag.$v".*
			else
				compared=$((compared + 1)) cmpd[$v]=$((cmpd[$v] + 1))
				diffs=$((diffs + 1)) difs[$v]=$((difs[$v] + 1))
				echo "FAIL $c $k $tag $v ($(difftest_vflags "$v")): the runs differ (exit $(cat "$n.rc") and $(cat "$d/$c/$k.$tag.$v.rc"))" >> "$d/log"
				echo "(cd $c && $PTXLINK_RUN $v.ptx $k --dump --printf-by-thread $STEPS $launch)  # vs plain.ptx" >> "$d/cmds"
			fi
		done
	done < "$d/launches"
	for v in $VARIANTS; do
		echo "${cmpd[$v]} ${difs[$v]} ${ident[$v]}"
	done | tr '\n' ' ' > "$d/$c/stat"
}

# agree DIR: the builds' baselines the same for every launch that
# completed, compared with the first build that is not nvcc -O3's (its
# known overlap of live local arrays, tests/difftest/known/: where only
# nvcc-O3 and nvcc-lineinfo differ, it is logged KNOWN)
agree() {
	local d=$1 f c ref odd
	while read -r k tag _; do
		f=$k.$tag.out ref='' odd=''
		for c in $BUILDS; do
			case $c in nvcc-O3 | nvcc-lineinfo) continue ;; esac
			[ -s "$d/$c/$f" ] && { ref=$c; break; }
		done
		[ -n "$ref" ] || continue
		for c in $BUILDS; do
			[ -s "$d/$c/$f" ] && ! cmp -s "$d/$ref/$f" "$d/$c/$f" && odd="$odd $c"
		done
		[ -n "$odd" ] || continue
		if ! tr ' ' '\n' <<< "$odd" | grep -q -v -E '^(nvcc-O3|nvcc-lineinfo|)$'; then
			echo "KNOWN $k $tag:$odd differ from $ref and the rest (nvcc -O3's local overlap, tests/difftest/known/)" >> "$d/log"
			known=$((known + 1))
			continue
		fi
		echo "FAIL $k $tag: the baselines of $ref and$odd disagree" >> "$d/log"
		ubfail=$((ubfail + 1))
	done < "$d/launches"
}

# one GEN SEED: the whole sweep for one program, in $work/GEN-seed-SEED
one() {
	local g=$1 s=$2 d=$work/$1-seed-$2 t0=$SECONDS c f nb=0 nk
	local compared=0 diffs=0 notcmp=0 lfail=0 pfail=0 rfail=0 cfail=0 ubfail=0 known=0 vfail=0
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/log"
	: > "$d/cmds"
	generate "$g" "$s" "$d" >> "$d/log" 2>&1 || { echo "FAIL gen-$g.py failed" >> "$d/log"; cfail=1; }
	nk=$(cut -d' ' -f1 "$d/launches" | sort -u | wc -l)
	for c in $BUILDS; do
		[ $cfail = 0 ] || break
		if [ "$c" = nvcc-G-strip ] && [ -d "$d/nvcc-G" ]; then
			mkdir -p "$d/$c"
			for f in "$d"/src/*.cu; do
				f=$(basename "$f" .cu)
				cp "$d/nvcc-G/$f.ptx" "$d/$c/"
			done
		elif ! compile "$d" "$c"; then
			echo "FAIL $c does not compile the program: $(grep -m1 error "$d/$c/compile.err")" >> "$d/log"
			cfail=$((cfail + 1))
			continue
		fi
		nb=$((nb + 1))
		check "$d" "$c"
	done
	[ $cfail = 0 ] && agree "$d"
	local status=pass
	[ $((diffs + lfail + pfail + rfail + cfail + ubfail)) -gt 0 ] && status=fail
	echo "$status $compared $diffs $notcmp $lfail $pfail $rfail $cfail $ubfail $nk $known $vfail $nb" > "$d/counts"
	{
		echo "$g seed $s: $status, $nb builds, $nk kernels, $compared runs compared, $diffs differences," \
			"$vfail links with verifier findings, $notcmp not compared, $((SECONDS - t0)) s"
		grep -E '^(FAIL|KNOWN)' "$d/log" | head -8 | sed 's/^/  /'
	} > "$d/summary"
	difftest_save "$d" "$g-seed-$s" $status \
		"# reproduce in this directory (sources in src/, per build its PTX, plain.ptx and VARIANT.ptx):" \
		"#   tests/difftest/difftest-sweep.sh --gen $g --seed $s --count 1"
	cat "$d/summary"
}

t0=$SECONDS
running=0
for ((s = seed; s < seed + count; s++)); do
	for g in $GENS; do
		if [ $running -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
		one "$g" "$s" &
		running=$((running + 1))
	done
done
wait

P=0 K=0 D=0 N=0 L=0 X=0 R=0 C=0 U=0 NK=0 KN=0 V=0 B=0 pass=0 fail=0
declare -A tot=()
for ((s = seed; s < seed + count; s++)); do
	for g in $GENS; do
		d=$work/$g-seed-$s
		P=$((P + 1))
		if [ ! -f "$d/counts" ]; then
			fail=$((fail + 1)); continue
		fi
		read -r st k df n l x r c u nk kn vf nb < "$d/counts"
		K=$((K + k)) D=$((D + df)) N=$((N + n)) L=$((L + l)) X=$((X + x)) R=$((R + r))
		C=$((C + c)) U=$((U + u)) NK=$((NK + nk)) KN=$((KN + kn)) V=$((V + vf)) B=$((B + nb))
		if [ "$st" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		for c in $BUILDS; do
			[ -f "$d/$c/stat" ] || continue
			read -r -a a < "$d/$c/stat"
			i=0
			for v in $VARIANTS; do
				for j in 0 1 2; do
					tot[$c.$j]=$((${tot[$c.$j]:-0} + ${a[i + j]:-0}))
					tot[$v.$j]=$((${tot[$v.$j]:-0} + ${a[i + j]:-0}))
				done
				i=$((i + 3))
			done
		done
	done
done
for c in $BUILDS $VARIANTS; do
	echo "difftest-sweep: $c: ${tot[$c.0]:-0} runs compared, ${tot[$c.1]:-0} differences," \
		"${tot[$c.2]:-0} identical to an earlier output"
done
echo "difftest-sweep: $N not compared (both runs stopped the same way), $L ptxlink failures ($V with verifier findings)," \
	"$X ptxas rejections, $R interpreter errors, $C builds that did not compile," \
	"$U build disagreements, $KN known nvcc miscompiles; $((SECONDS - t0)) s"
[ $fail -gt 0 ] && echo "difftest-sweep: reproducers in $faildir"
echo "difftest-sweep: $P programs, $B builds, $NK kernels, $K kernel runs compared, $D differences, $V links with verifier findings"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
