#!/usr/bin/env bash
# Differential testing of every stage at every option value on generated
# PTX (tests/difftest/gen-ptx.py): scopes, labels, statics, calls, the depot.
#
#   tests/difftest/difftest-ptx.sh [SEED... | --seed S --count N] [--jobs J]
#       [--keep DIR] [--fail-dir DIR] [--features=LIST] [--no-FEATURE...]
#       [--no-known-bad] [--ptxas-every K] [--findings DIR] [--reduce]
#       [--tag TAG] [--findings-per-seed N] [--quiet]
#
# For each seed (the SEEDs given, else S, S+1, ... S+N-1; default 1 and
# 10) gen-ptx.py writes a program of 1 to 3 PTX files, and its twin (the
# same program with every name a block declares again renamed apart).
# The reference is the twin linked with --no-stages: nothing in it
# depends on how scopes resolve.  The program linked with --no-stages
# (plain) must give the reference's results (else the interpreter or the
# parser reads scopes wrongly: a "twin" difference), and ptxas must accept
# the plain link (else the generator wrote bad PTX).  Then the program is
# linked, always with --verify, under each option set of VARIANTS below
# (every value of every stage option at least once, and a few
# combinations); a verifier finding (an `ir_verify` line), a failed link
# or a difference from the reference is a failure.  Every kernel runs on
# the interpreter (2 blocks of 32 threads) with two choices of data.  A
# variant whose output is byte for byte an earlier one's is not run again;
# ptxas checks every K-th variant's new output (--ptxas-every, default 4;
# 1: all).  A variant's difference from the reference when it gives
# plain's results and plain is already a twin difference is counted with
# the twin, not the stage.
#
# The features (gen-ptx.py --list-features) go to the generator as given:
# --features=all (default) or a list, --no-FEATURE each, --no-known-bad the
# ones issue 31 lists as miscompiled today.
#
# A failing seed is kept in <fail-dir>/seed-S (default difftest-ptx-fail
# beside the ptxlink binary) with its files, outputs and the commands.
# With --findings DIR each failure (per seed and what: twin, a variant,
# verify-VARIANT, link-VARIANT, ptxas-VARIANT) also goes to
# DIR/ptxgen-SEED-WHAT/ with a README of the commands, and one line to
# DIR/ptxgen.log (--tag T names them ptxgen-SEED-T-WHAT); an existing one
# is left as it is; --findings-per-seed N keeps a seed's first N.  With --reduce a seed's first failure there is cut down
# to the fewest features that still fail the same way (DIR/.../reduced).
# --quiet prints only the failing seeds' lines and the end.  The end is
#
#   difftest-ptx: P modules (programs), K kernels, R kernel runs, D differences,
#     T twin differences, V verifier findings, L link failures, X ptxas rejections
#   N passed, N failed
#
# and the exit status is 1 on any failure.  PTXLINK and PTXLINK_RUN name
# the binaries (default build/ptxlink and ptxlink-run beside it).  Exit 77
# (skipped) when ptxas is absent.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/difftest/difftest-lib.sh
. "$ROOT/tests/difftest/difftest-lib.sh"

genopts=() seeds='' ptxas_every=4 findings='' reduce=0 quiet=0 tag='' perseed=1000

difftest_option() {
	case $1 in
	--features=*) genopts+=("$1"); return 1 ;;
	--no-known-bad | --no-[a-z]*) genopts+=("$1"); return 1 ;;
	--ptxas-every) ptxas_every=$2; return 2 ;;
	--findings) findings=$(realpath -m "$2"); return 2 ;;
	--reduce) reduce=1; return 1 ;;
	--quiet) quiet=1; return 1 ;;
	--tag) tag=$2-; return 2 ;;
	--findings-per-seed) perseed=$2; return 2 ;;
	[0-9]*) seeds="$seeds $1"; return 1 ;;
	esac
	return 0
}
difftest_options difftest-ptx '2,49p' "$@"
difftest_setup difftest-ptx difftest-ptx-fail ptxas

# name|options: every value of every option at least once, and combinations
VARIANTS=(
	"default|"
	"O0|-O0" "O1|-O1" "O2|-O2" "O3|-O3"
	"inline-never|--inline=never" "inline-always|--inline=always"
	"threshold-0|--inline-threshold=0" "threshold-20|--inline-threshold=20"
	"threshold-1000|--inline-threshold=1000"
	"no-ipo|--no-ipo" "ipo-constants|--ipo-constants" "no-byvalue|--no-ipo-byvalue"
	"no-sroa|--no-sroa" "no-depot|--no-depot"
	"trust-layout|--trust-layout" "always-trust|--inline=always --trust-layout"
	"no-devirt|--no-devirt" "funnel-2|--devirt-funnel-max=2"
	"funnel-1|--devirt-funnel-max=1" "funnel-8|--devirt-funnel-max=8"
	"addrprep|--addrprep" "addrprep-narrow|--addrprep=narrow"
	"addrprep-widen|--addrprep=widen" "addrprep-fold|--addrprep=fold"
	"addrprep-sink|--addrprep=sink" "no-addrprep|--no-addrprep"
	"internalize|--internalize" "no-globalopt|--no-globalopt"
	"strip-debug|--strip-debug"
	"opt-locals|--opt-locals" "always-locals|--inline=always --opt-locals"
	"locals-nodepot|--opt-locals --no-depot"
	"no-reroll|--no-reroll" "reroll-any|--reroll-any"
	"reroll-any-always|--reroll-any --inline=always"
	"no-fold|--no-fold" "always-nofold|--inline=always --no-fold"
	"no-unrecurse|--no-unrecurse" "never-unrecurse|--inline=never"
	"always-constants-internalize|--inline=always --ipo-constants --internalize"
	"never-noipo-funnel1|--inline=never --no-ipo --devirt-funnel-max=1"
	"big-threshold-addrprep|--inline-threshold=1000 --addrprep --internalize"
	"always-nosroa|--inline=always --no-sroa"
	"constants-nodevirt|--ipo-constants --no-devirt --inline=never"
	"never-internalize|--inline=never --internalize"
	"never-constants-internalize|--inline=never --ipo-constants --internalize"
)
DATA=("--arg buf:1024:pattern=1 --arg u32:3" "--arg buf:1024:pattern=2 --arg u32:7")

# run DIR MODULE KERNEL W I: the kernel's results on data I, normalized
# (the error message without its file and line), in DIR/MODULE.KERNEL.I
run() {
	local d=$1 m=$2 k=$3 w=$4 i=$5 rc
	# shellcheck disable=SC2086
	$limit "$PTXLINK_RUN" "$d/$m.ptx" "$k" --grid 2 --block 32 --printf-by-thread \
		--max-steps 20000000 --arg buf:$((64 * w * 4)):zero ${DATA[$i]} \
		> "$d/$m.$k.$i" 2> "$d/$m.$k.$i.err"
	rc=$?
	{
		echo "exit $rc"
		sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //' "$d/$m.$k.$i.err" | head -3
	} >> "$d/$m.$k.$i"
	rm -f "$d/$m.$k.$i.err"
}

# finding SEED WHAT LINE [MODULE [FLAGS]]: a failure kept under $findings
finding() {
	local s=$1 what=$2 line=$3 m=${4:-} flags=${5:-} d=$work/seed-$1 f
	[ -n "$findings" ] || return 0
	f=$findings/ptxgen-$s-$tag$what
	[ -d "$f" ] || [ "$reduced" -ge "$perseed" ] && return 0
	reduced=$((reduced + 1))
	mkdir -p "$f"
	cp "$d"/prog/*.ptx "$d/prog/manifest" "$f/" 2>/dev/null
	[ -n "$m" ] && cp "$d/$m.ptx" "$f/out.ptx" 2>/dev/null
	{
		echo "# seed $s: $line"
		echo "# generator: tests/difftest/gen-ptx.py at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "${GEN_COMMIT:-?}")"
		echo "python3 tests/difftest/gen-ptx.py $s ${genopts[*]} -o prog"
		echo "python3 tests/difftest/gen-ptx.py $s ${genopts[*]} --twin -o twin"
		echo "build/ptxlink --no-stages -arch=sm_80 twin/f*.ptx -o ref.ptx"
		echo "build/ptxlink --verify -arch=sm_80 $flags prog/f*.ptx -o out.ptx"
		echo "build/ptxlink-run ref.ptx KERNEL --grid 2 --block 32 --printf-by-thread" \
			"--arg buf:BYTES:zero ${DATA[0]}   # and out.ptx; BYTES = 256 * W (manifest)"
	} > "$f/README"
	[ -f "$d/why" ] && cat "$d/why" >> "$f/README"
	[ "$reduce" = 1 ] && [ "$reduced" = 1 ] && reduce_finding "$s" "$what" "$flags" "$f"
	mkdir -p "$findings"
	echo "ptxgen-$s-$tag$what: $line" >> "$findings/ptxgen.log"
}

# fails FEATURES SEED WHAT FLAGS DIR: does the program of FEATURES still
# fail as WHAT did (a twin difference, a verifier finding, a failed link,
# a difference)?
fails() {
	local feats=$1 s=$2 what=$3 flags=$4 d=$5 k w i
	rm -rf "$d" && mkdir -p "$d"
	python3 "$ROOT/tests/difftest/gen-ptx.py" "$s" --features="$feats" -o "$d/prog" >/dev/null || return 1
	python3 "$ROOT/tests/difftest/gen-ptx.py" "$s" --features="$feats" --twin -o "$d/twin" >/dev/null || return 1
	"$PTXLINK" --no-stages -arch=sm_80 "$d"/twin/f*.ptx -o "$d/ref.ptx" 2>/dev/null || return 1
	if [ "$what" = twin ]; then
		"$PTXLINK" --no-stages -arch=sm_80 "$d"/prog/f*.ptx -o "$d/out.ptx" 2>/dev/null || return 1
	else
		# in a subshell: a crash's "Aborted" goes to the file, not the report
		# shellcheck disable=SC2086
		($limit "$PTXLINK" --verify -arch=sm_80 $flags "$d"/prog/f*.ptx -o "$d/out.ptx") > "$d/err" 2>&1
		case $what in
		verify-*) grep -q ir_verify "$d/err"; return ;;
		link-*) [ ! -f "$d/out.ptx" ]; return ;;
		ptxas-*) ! ptxas -arch=sm_80 "$d/out.ptx" -o /dev/null 2>/dev/null; return ;;
		esac
		[ -f "$d/out.ptx" ] || return 1
	fi
	while read -r _ k w; do
		for i in 0 1; do
			run "$d" ref "$k" "$w" $i
			run "$d" out "$k" "$w" $i
			grep -q '^exit 2' "$d/ref.$k.$i" && continue
			cmp -s "$d/ref.$k.$i" "$d/out.$k.$i" || return 0
		done
	done < <(grep '^kernel ' "$d/prog/manifest")
	return 1
}

# reduce_finding SEED WHAT FLAGS DIR: drop features one at a time while
# the program still fails; the smallest program goes to DIR/reduced
reduce_finding() {
	local s=$1 what=$2 flags=$3 f=$4 t feats keep x
	t=$work/reduce-$s-$what
	feats=$(sed -n 's/^# features: //p' "$work/seed-$s/prog/manifest")
	fails "$feats" "$s" "$what" "$flags" "$t" || { rm -rf "$t"; return; }
	for x in ${feats//,/ }; do
		keep=$(tr ',' '\n' <<< "$feats" | grep -vx "$x" | paste -sd,)
		fails "$keep" "$s" "$what" "$flags" "$t" && feats=$keep
	done
	fails "$feats" "$s" "$what" "$flags" "$t"
	mkdir -p "$f/reduced"
	cp "$t"/prog/*.ptx "$t/prog/manifest" "$f/reduced/"
	[ -f "$t/out.ptx" ] && cp "$t/out.ptx" "$f/reduced/out.ptx"
	echo "# reduced: python3 tests/difftest/gen-ptx.py $s --features=$feats -o prog" >> "$f/README"
	rm -rf "$t"
}

# one SEED: generate, link every way, run every kernel against the reference
one() {
	local s=$1 d=$work/seed-$1 t0=$SECONDS k w i v name flags m e prev same new
	local reduced=0 nk=0 runs=0 diffs=0 twin=0 notcmp=0 vfail=0 lfail=0 pfail=0 gfail=0 modules=0
	local kernels=()
	rm -rf "$d" && mkdir -p "$d"
	: > "$d/log"
	if ! python3 "$ROOT/tests/difftest/gen-ptx.py" "$s" "${genopts[@]}" -o "$d/prog" >> "$d/log" 2>&1 ||
		! python3 "$ROOT/tests/difftest/gen-ptx.py" "$s" "${genopts[@]}" --twin -o "$d/twin" >> "$d/log" 2>&1; then
		echo "FAIL gen-ptx.py failed" >> "$d/log"
		gfail=1
	fi
	mapfile -t kernels < <(sed -n 's/^kernel //p' "$d/prog/manifest" 2>/dev/null)
	nk=${#kernels[@]}
	"$PTXLINK" --no-stages -arch=sm_80 "$d"/twin/f*.ptx -o "$d/ref.ptx" > "$d/ref.err" 2>&1 ||
		{ echo "FAIL the twin does not link: $(head -1 "$d/ref.err")" >> "$d/log"; gfail=1; }
	"$PTXLINK" --no-stages -arch=sm_80 "$d"/prog/f*.ptx -o "$d/plain.ptx" > "$d/plain.err" 2>&1 ||
		{ echo "FAIL the program does not link: $(head -1 "$d/plain.err")" >> "$d/log"; gfail=1; }
	if [ $gfail = 0 ] && ! $limit ptxas -arch=sm_80 "$d/plain.ptx" -o /dev/null > "$d/plain.ptxas" 2>&1; then
		echo "FAIL ptxas rejects the plain link (the generator's fault): $(head -1 "$d/plain.ptxas")" >> "$d/log"
		gfail=1
	fi
	if [ $gfail = 0 ]; then
		modules=1
		for e in "${kernels[@]}"; do
			read -r k w <<< "$e"
			for i in 0 1; do
				run "$d" ref "$k" "$w" $i
				run "$d" plain "$k" "$w" $i
				grep -q '^exit 0' "$d/ref.$k.$i" || continue
				runs=$((runs + 1))
				if ! cmp -s "$d/ref.$k.$i" "$d/plain.$k.$i"; then
					[ $twin = 0 ] && finding "$s" twin "plain link of the program differs from its twin's in $k (interpreter or parser scoping)" plain
					twin=$((twin + 1))
					echo "FAIL twin: $k data $i: the plain link differs from the twin's" >> "$d/log"
				fi
			done
		done
	fi
	prev=()
	for v in "${VARIANTS[@]}"; do
		[ $gfail = 0 ] || break
		name=${v%%|*} flags=${v#*|} m=v-$name
		# shellcheck disable=SC2086
		($limit "$PTXLINK" --verify -arch=sm_80 $flags "$d"/prog/f*.ptx -o "$d/$m.ptx") > "$d/$m.err" 2>&1
		e=$?
		if grep -q ir_verify "$d/$m.err"; then
			vfail=$((vfail + 1))
			echo "FAIL $name: verifier: $(grep -m1 ir_verify "$d/$m.err")" >> "$d/log"
			grep -m1 ir_verify "$d/$m.err" > "$d/why"
			finding "$s" "verify-$name" "$flags: $(grep -m1 -o 'ir_verify.*' "$d/$m.err")" "$m" "$flags"
		fi
		if [ $e != 0 ] || [ ! -f "$d/$m.ptx" ]; then
			lfail=$((lfail + 1))
			echo "FAIL $name: ptxlink failed (exit $e): $(grep -m1 -E 'error|internal' "$d/$m.err")" >> "$d/log"
			finding "$s" "link-$name" "$flags: exit $e: $(grep -m1 -E 'error|internal' "$d/$m.err")" "" "$flags"
			continue
		fi
		same=''
		for p in "${prev[@]}"; do
			cmp -s "$d/$m.ptx" "$d/$p.ptx" && { same=$p; break; }
		done
		[ -n "$same" ] && continue
		prev+=("$m")
		if [ $(((s + ${#prev[@]}) % ptxas_every)) = 0 ] &&
			! $limit ptxas -arch=sm_80 "$d/$m.ptx" -o /dev/null > "$d/$m.ptxas" 2>&1; then
			pfail=$((pfail + 1))
			echo "FAIL $name: ptxas rejects the output: $(head -1 "$d/$m.ptxas")" >> "$d/log"
			finding "$s" "ptxas-$name" "$flags: $(head -1 "$d/$m.ptxas")" "$m" "$flags"
		fi
		new=0
		for e in "${kernels[@]}"; do
			read -r k w <<< "$e"
			for i in 0 1; do
				grep -q '^exit 0' "$d/ref.$k.$i" || { notcmp=$((notcmp + 1)); continue; }
				run "$d" "$m" "$k" "$w" $i
				runs=$((runs + 1))
				cmp -s "$d/ref.$k.$i" "$d/$m.$k.$i" && continue
				# plain's results, and plain already differs: the twin's finding
				cmp -s "$d/plain.$k.$i" "$d/$m.$k.$i" && continue
				diffs=$((diffs + 1))
				echo "FAIL $name: $k data $i differs from the reference: $(diff "$d/ref.$k.$i" "$d/$m.$k.$i" | grep -m1 '^>')" >> "$d/log"
				new=1
			done
		done
		[ $new = 1 ] && finding "$s" "$name" "$flags: $(grep -m1 "^FAIL $name:" "$d/log" | cut -c1-200)" "$m" "$flags"
	done
	local status=pass
	[ $((diffs + twin + vfail + lfail + pfail + gfail)) -gt 0 ] && status=fail
	echo "$status $nk $runs $diffs $twin $notcmp $vfail $lfail $pfail $gfail $modules" > "$d/counts"
	{
		echo "seed $s: $status, $nk kernels, $runs runs, $diffs differences, $twin twin," \
			"$vfail verifier, $lfail link, $pfail ptxas, $notcmp not compared, $((SECONDS - t0)) s"
		grep '^FAIL' "$d/log" | head -8 | sed 's/^/  /'
	} > "$d/summary"
	difftest_save "$d" "seed-$s" $status
	if [ "$quiet" = 0 ] || [ $status = fail ]; then
		cat "$d/summary"
	fi
	[ -n "$keep" ] || rm -rf "$d"/v-* "$d"/plain.* "$d"/ref.*
}

t0=$SECONDS
difftest_run_seeds

P=0 K=0 R=0 D=0 T=0 N=0 V=0 L=0 X=0 G=0 M=0 pass=0 fail=0
for s in ${seeds:-$(seq "$seed" $((seed + count - 1)))}; do
	P=$((P + 1))
	f=$work/seed-$s/counts
	[ -f "$f" ] || { fail=$((fail + 1)); continue; }
	read -r st nk r d t n v l x g m < "$f"
	K=$((K + nk)) R=$((R + r)) D=$((D + d)) T=$((T + t)) N=$((N + n)) V=$((V + v))
	L=$((L + l)) X=$((X + x)) G=$((G + g)) M=$((M + m))
	if [ "$st" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
[ $fail -gt 0 ] && echo "difftest-ptx: reproducers in $faildir"
echo "difftest-ptx: $M modules (programs) of $P seeds, $K kernels, $R kernel runs, $D differences," \
	"$T twin differences, $V verifier findings, $L link failures, $X ptxas rejections," \
	"$G generator faults, $N runs not compared; $((SECONDS - t0)) s"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
