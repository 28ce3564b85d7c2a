# What the differential runs (difftest-programs.sh, -depot, -addrprep,
# -globalopt, -calls) share: options, set-up, seeds, one link and ptxas check
# (difftest_link), one interpreter comparison (difftest_compare), the
# tally.  Sourced; the set-up comes after the options are read:
#   difftest_setup NAME FAILDIR-DEFAULT [TOOLS]
# finds TOOLS (default nvcc and ptxas; exit 77, skipped, without them), PTXLINK and
# PTXLINK_RUN (default build/ptxlink and ptxlink-run beside it), clang
# unless clang_ok=0, and sets faildir (unless given), work (kept in $keep
# or a temporary removed at exit) and limit (a 300 s timeout per command).
difftest_setup() {
	local name=$1 faildefault=$2 tools=${3:-nvcc ptxas} t b
	PATH=/usr/local/cuda/bin:$PATH
	export PATH
	for t in $tools; do  # a list, split on purpose
		if ! command -v $t >/dev/null 2>&1; then
			echo "SKIPPED: $t not found"
			exit 77
		fi
	done
	PTXLINK=$(realpath "${PTXLINK:-$ROOT/build/ptxlink}")
	PTXLINK_RUN=$(realpath "${PTXLINK_RUN:-$(dirname "$PTXLINK")/ptxlink-run}")
	export PTXLINK_RUN
	for b in "$PTXLINK" "$PTXLINK_RUN"; do
		[ -x "$b" ] || { echo "$name: '$b' is not an executable" >&2; exit 2; }
	done
	faildir=$(realpath -m "${faildir:-$(dirname "$PTXLINK")/$faildefault}")
	CLANG=
	if [ "$clang_ok" = 1 ]; then
		CLANG=$(command -v clang 2>/dev/null || command -v clang-14 2>/dev/null || true)
	fi
	CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
	if [ -n "$keep" ]; then
		mkdir -p "$keep" && work=$(realpath "$keep")
	else
		work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX") || exit 2
		# shellcheck disable=SC2064
		trap "rm -rf '$work'" EXIT
	fi
	trap 'exit 130' INT TERM
	limit=
	command -v timeout >/dev/null 2>&1 && limit="timeout 300"
}

# one SEED for every seed of $seeds, if set, else from $seed, $count of
# them; $jobs at a time.
difftest_run_seeds() {
	local s running=0
	for s in ${seeds:-$(seq "$seed" $((seed + count - 1)))}; do
		if [ $running -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
		one "$s" &
		running=$((running + 1))
	done
	wait
}

# difftest_one SEED GENERATOR LABEL FILES: one seed of a generated-source
# run (difftest-depot.sh, -addrprep.sh, -globalopt.sh) in $work/seed-SEED: the
# generator's source compiled by each of $COMPILERS, then the script's
# check DIR COMPILER, then difftest_agree DIR, which count into the locals below
# (compared, diffs, ...); stat_text DIR COMPILER gives each compiler's
# part of the summary line after LABEL.  Writes counts and summary for
# difftest_tally, and keeps a failing seed (FILES as for keep_failure).
difftest_one() {
	local s=$1 gen=$2 label=$3 files=$4 d=$work/seed-$1 t0=$SECONDS c line=''
	local compared=0 diffs=0 notcmp=0 lfail=0 pfail=0 rfail=0 cfail=0 ubfail=0 known=0 kernels maxthreads nk
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/log"
	: > "$d/cmds"
	if ! python3 "$ROOT/tests/difftest/$gen" "$s" -o "$d/prog.cu" >> "$d/log" 2>&1; then
		echo "FAIL $gen failed" >> "$d/log"
		cfail=1
	fi
	kernels=$(sed -n 's|^// kernels: ||p' "$d/prog.cu" 2>/dev/null)
	maxthreads=$(sed -n 's|^// maxthreads: ||p' "$d/prog.cu" 2>/dev/null)
	nk=$(wc -w <<< "$kernels")
	for c in $COMPILERS; do
		[ $cfail = 0 ] || break
		if ! difftest_compile "$d" "$c"; then
			echo "FAIL $c does not compile the source: $(grep -m1 error "$d/$c/compile.err")" >> "$d/log"
			cfail=$((cfail + 1))
			continue
		fi
		check "$d" "$c"
		[ -f "$d/$c/stat" ] && line="$line, $c $(stat_text "$d" "$c")"
	done
	[ $cfail = 0 ] && difftest_agree "$d"
	local status=pass
	[ $((diffs + lfail + pfail + rfail + cfail + ubfail)) -gt 0 ] && status=fail
	echo "$status $compared $diffs $notcmp $lfail $pfail $rfail $cfail $ubfail $nk" > "$d/counts"
	{
		echo "seed $s: $status, $nk kernels, $compared compared, $diffs differences," \
			"$notcmp not compared, $((SECONDS - t0)) s; $label$line"
		grep '^FAIL' "$d/log" | head -8 | sed 's/^/  /'
	} > "$d/summary"
	difftest_keep_failure "$s" "$status" "$gen" "$files"
	cat "$d/summary"
}

# difftest_agree DIR: every compiler's "before" runs gave the same output
# (DIR/COMPILER/NAME.out, as the script's check wrote them); a
# disagreement is undefined behaviour in the source, or a compiler or the
# interpreter wrong, and counts in ubfail, unless the script's
# difftest_known DIR NAME (where it has one) finds it a known compiler
# bug, logs why and says so (status 0): then it counts in known.
difftest_agree() {
	local d=$1 c k f first odd
	for c in $COMPILERS; do
		for f in "$d/$c"/*.out; do
			[ -e "$f" ] || continue
			f=$(basename "$f")
			first='' odd=''
			for k in $COMPILERS; do
				[ -s "$d/$k/$f" ] || continue
				if [ -z "$first" ]; then
					first=$k
				elif ! cmp -s "$d/$first/$f" "$d/$k/$f"; then
					odd="$odd $k"
				fi
			done
			[ -n "$odd" ] || continue
			if declare -F difftest_known > /dev/null && difftest_known "$d" "${f%.out}"; then
				known=$((known + 1))
				continue
			fi
			for k in $odd; do
				echo "FAIL ${f%.out}: $first and $k disagree before the stage (undefined behaviour in the source?)" >> "$d/log"
				ubfail=$((ubfail + 1))
			done
		done
		break
	done
}

# difftest_keep_failure SEED STATUS GENERATOR FILES [OUTPUT]: a failing
# seed's directory copied to $faildir/seed-SEED with the commands that
# reproduce it (FILES: what each compiler's directory holds; OUTPUT: what
# the generator writes, default prog.cu); a passing seed's old copy goes.
difftest_keep_failure() {
	local s=$1 status=$2 gen=$3 files=$4 out=${5:-prog.cu}
	difftest_save "$work/seed-$s" "seed-$s" "$status" \
		"# reproduce in this directory ($out; per compiler $files):" \
		"#   python3 $ROOT/tests/difftest/$gen $s -o $out"
}

# difftest_save DIR NAME STATUS [LINE...]: a failed seed's DIR copied to
# $faildir/NAME (an earlier one there goes either way), its cmds file
# headed by the LINEs that say how to make it again, and where it went
# told in its summary.
difftest_save() {
	local d=$1 name=$2 status=$3
	shift 3
	rm -rf "${faildir:?}/$name"
	[ "$status" = fail ] || return 0
	mkdir -p "$faildir"
	cp -r "$d" "$faildir/$name"
	rm -f "$faildir/$name"/*/*.cubin
	if [ $# -gt 0 ]; then
		{ printf '%s\n' "$@"; cat "$d/cmds" 2>/dev/null; } > "$faildir/$name/cmds"
	fi
	echo "  saved in $faildir/$name" >> "$d/summary"
}

# difftest_tally: every seed's counts summed into P (seeds) K (runs
# compared) D (differences) N (not compared) L (ptxlink failures) X
# (ptxas rejections) R (interpreter errors) C (sources that did not
# compile) U (compiler disagreements) NK (kernels) KN (disagreements
# that are known compiler bugs, a script's 11th column), pass and fail; each
# compiler's stat columns into tot[COMPILER.i] and tot[all.i].
difftest_tally() {
	local s f st k d n l x r c u nk kn i v
	P=0 K=0 D=0 N=0 L=0 X=0 R=0 C=0 U=0 NK=0 KN=0 pass=0 fail=0
	declare -gA tot=()
	for ((s = seed; s < seed + count; s++)); do
		f=$work/seed-$s/counts
		P=$((P + 1))
		if [ ! -f "$f" ]; then
			fail=$((fail + 1)); continue
		fi
		read -r st k d n l x r c u nk kn < "$f"
		K=$((K + k)) D=$((D + d)) N=$((N + n)) L=$((L + l)) X=$((X + x))
		R=$((R + r)) C=$((C + c)) U=$((U + u)) NK=$((NK + nk)) KN=$((KN + ${kn:-0}))
		if [ "$st" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		for c in $COMPILERS; do
			[ -f "$work/seed-$s/$c/stat" ] || continue
			read -r -a v < "$work/seed-$s/$c/stat"
			for i in "${!v[@]}"; do
				tot[$c.$i]=$((${tot[$c.$i]:-0} + v[i]))
				tot[all.$i]=$((${tot[all.$i]:-0} + v[i]))
			done
		done
	done
}

# difftest_options NAME HELP "$@": the options every differential run
# takes (--seed S, --count N, --jobs J, --keep DIR, --fail-dir DIR,
# --no-clang; --help prints the script's lines HELP, a sed range).  An
# option of the script's own goes to its difftest_option OPTION VALUE,
# whose status is how many words it took (0: not its option).
difftest_options() {
	local name=$1 help=$2 took
	shift 2
	seed=1 count=10 jobs=2 keep='' faildir='' clang_ok=1
	while [ $# -gt 0 ]; do
		case $1 in
		--seed) seed=$2; shift ;;
		--count) count=$2; shift ;;
		--jobs | -j) jobs=$2; shift ;;
		--keep) keep=$2; shift ;;
		--fail-dir) faildir=$2; shift ;;
		--no-clang) clang_ok=0 ;;
		-h | --help) sed -n "$help" "$0"; exit 0 ;;
		*)
			took=0
			if declare -F difftest_option >/dev/null; then
				difftest_option "$1" "${2:-}"
				took=$?
			fi
			[ "$took" -gt 0 ] || { echo "$name: unknown argument: $1" >&2; exit 2; }
			shift $((took - 1)) ;;
		esac
		shift
	done
}

# difftest_compile DIR COMPILER: DIR/prog.cu to DIR/COMPILER/in.ptx with
# nvcc -O3 (nvcc-O3), nvcc -G (nvcc-G) or clang -O2 in CUDA mode (clang),
# for sm_80; the compiler's messages in DIR/COMPILER/compile.err.
difftest_compile() {
	local d=$1 c=$2
	mkdir -p "$d/$c"
	case $c in
	nvcc-O3) (cd "$d" && $limit nvcc -arch=sm_80 --ptx -O3 -w prog.cu -o "$c/in.ptx") ;;
	nvcc-G) (cd "$d" && $limit nvcc -arch=sm_80 --ptx -G -w prog.cu -o "$c/in.ptx") ;;
	clang) (cd "$d" && $limit "$CLANG" -x cuda --cuda-gpu-arch=sm_80 --cuda-device-only \
		-nocudainc --cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -w -O2 -S \
		-DPTXLINK_CLANG -I"$ROOT/corpus/src" prog.cu -o "$c/in.ptx") ;;
	esac > "$d/$c/compile.err" 2>&1
}

# difftest_link DIR BUILD NAME "EARLIER" "FLAGS" INPUT...: in DIR/BUILD,
# ptxlink FLAGS -o NAME.ptx INPUT..., then ptxas on the output unless it
# is the same as an EARLIER name's (ptxas is the slow part; same is set
# to that name).  A failure is a FAIL line in DIR/log, the command in
# DIR/cmds, counted in lfail (no NAME.ptx is left; status 1) or pfail;
# a verifier finding ("ir_verify" in ptxlink's messages, which --verify
# prints as a warning where it goes on) is a failure too, counted in
# lfail and vfail, the output kept.
difftest_link() {
	local d=$1 c=$2 name=$3 earlier=$4 flags=$5 rc why w
	shift 5
	same=
	# shellcheck disable=SC2086
	(cd "$d/$c" && $limit "$PTXLINK" $flags -o "$name.ptx" "$@") > "$d/$c/$name.link.err" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		why=$(grep -m1 -E 'error|internal' "$d/$c/$name.link.err")
		[ $rc -gt 128 ] && why="killed by signal $((rc - 128))"
		if grep -q ir_verify "$d/$c/$name.link.err"; then
			why="$why after $(grep -c ir_verify "$d/$c/$name.link.err") verifier findings: $(grep -m1 ir_verify "$d/$c/$name.link.err")"
			vfail=$((${vfail:-0} + 1))
		fi
		echo "FAIL $c $name: ptxlink failed: ${why:-exit $rc}" >> "$d/log"
		echo "(cd $c && $PTXLINK $flags -o $name.ptx $*)" >> "$d/cmds"
		lfail=$((lfail + 1))
		rm -f "$d/$c/$name.ptx"
		return 1
	fi
	if grep -q ir_verify "$d/$c/$name.link.err"; then
		echo "FAIL $c $name: $(grep -c ir_verify "$d/$c/$name.link.err") verifier findings:" \
			"$(grep -m1 ir_verify "$d/$c/$name.link.err")" >> "$d/log"
		echo "(cd $c && $PTXLINK $flags -o $name.ptx $*)" >> "$d/cmds"
		lfail=$((lfail + 1)) vfail=$((${vfail:-0} + 1))
	fi
	for w in $earlier; do
		cmp -s "$d/$c/$name.ptx" "$d/$c/$w.ptx" && { same=$w; return 0; }
	done
	if ! $limit ptxas -arch=sm_80 "$d/$c/$name.ptx" -o /dev/null > "$d/$c/$name.ptxas.err" 2>&1; then
		echo "FAIL $c $name: ptxas rejects the output: $(head -1 "$d/$c/$name.ptxas.err")" >> "$d/log"
		echo "ptxas -arch=sm_80 $c/$name.ptx -o /dev/null" >> "$d/cmds"
		pfail=$((pfail + 1))
	fi
	return 0
}

# difftest_compare DIR BUILD BASE NAME KERNEL TAG LAUNCH...: KERNEL of
# DIR/BUILD/BASE.ptx against NAME.ptx on the interpreter
# (tests/difftest/difftest.sh) with the ptxlink-run options LAUNCH; TAG
# names the launch in the log.  Counts compared and diffs, notcmp (both
# stopped the same way) or rfail (the harness failed: both runs exiting
# 1 is a bad command line or PTX that does not parse, not the kernel);
# a FAIL or note line in DIR/log, and for a failure the command in
# DIR/cmds.  Status: 0 the same, 1 different, 2 not compared, 3 failed.
difftest_compare() {
	local d=$1 c=$2 b=$3 name=$4 k=$5 tag=$6 rc out what cmd
	shift 6
	out=$d/$c/$k.$name${tag:+.${tag// /.}}.diff
	what="$c $k $name${tag:+ $tag}"
	cmd="PTXLINK_RUN=$PTXLINK_RUN $ROOT/tests/difftest/difftest.sh $c/$b.ptx $c/$name.ptx $k $*"
	$limit "$ROOT/tests/difftest/difftest.sh" "$d/$c/$b.ptx" "$d/$c/$name.ptx" "$k" "$@" > "$out" 2>&1
	rc=$?
	[ $rc = 77 ] && grep -q 'stopped the same way (exit 1)' "$out" && rc=3
	case $rc in
	0) compared=$((compared + 1)); rm -f "$out"; return 0 ;;
	77) notcmp=$((notcmp + 1))
	    echo "note: $what: $(head -1 "$out")" >> "$d/log"
	    rm -f "$out"; return 2 ;;
	1) compared=$((compared + 1)) diffs=$((diffs + 1))
	   echo "FAIL $what: $(head -1 "$out")" >> "$d/log"
	   echo "$cmd" >> "$d/cmds"; return 1 ;;
	*) rfail=$((rfail + 1))
	   echo "FAIL $what: difftest.sh exit $rc: $(head -1 "$out")" >> "$d/log"
	   echo "$cmd" >> "$d/cmds"; return 3 ;;
	esac
}

# The stage options at each of their values (one at a time, not the
# cross product), by name, for the sweeps over generated programs
# (difftest-sweep.sh) and over the corpus (coverage.sh with VARIANTS=all):
# difftest_vflags NAME gives ptxlink's options; -O3, --inline=auto, --ipo,
# the default threshold and funnel limit and --addrprep=sink are the
# default's.
DIFFTEST_VARIANTS="default O0 O1 O2 nodevirt fm1 fm2 fm64 never always t0 thuge noglobalopt
	internalize noipo ipoconst nobyvalue nodepot nosroa addrprep narrow widen fold sink noaddrprep locals
	localsalways noreroll rerollany nofold nounrecurse max"
difftest_vflags() {
	case $1 in
	default | unlinked) ;;
	O[0-2]) echo "-$1" ;;
	nodevirt) echo --no-devirt ;;
	fm*) echo "--devirt-funnel-max=${1#fm}" ;;
	never | always) echo "--inline=$1" ;;
	t0) echo --inline-threshold=0 ;;
	thuge) echo --inline-threshold=100000 ;;
	noglobalopt) echo --no-globalopt ;;
	internalize) echo --internalize ;;
	noipo) echo --no-ipo ;;
	ipoconst) echo --ipo-constants ;;
	nobyvalue) echo --no-ipo-byvalue ;;
	nodepot) echo --no-depot ;;
	nosroa) echo --no-sroa ;;
	addrprep) echo --addrprep ;;
	narrow | widen | fold | sink) echo "--addrprep=$1" ;;
	noaddrprep) echo --no-addrprep ;;
	locals) echo --opt-locals ;;
	localsalways) echo --opt-locals --inline=always ;;
	noreroll) echo --no-reroll ;;
	rerollany) echo --reroll --reroll-any ;;
	nofold) echo --no-fold ;;
	nounrecurse) echo --no-unrecurse ;;
	max) echo --inline=always --ipo-constants --internalize --addrprep ;;
	*) echo "difftest: unknown variant $1" >&2; return 1 ;;
	esac
}
