#!/usr/bin/env bash
# The sweeps fail on what they are for.  A ptxlink that loses every
# global store of --inline=always's output and reports a verifier finding
# (a warning, exit 0) under --no-sroa stands in for the real one in
#
#   coverage.sh --diff with VARIANTS="always nosroa default" on one corpus module
#   coverage.sh --diff with STAGES=1 STAGE_ARGS=--no-sroa (run-roundtrip's way), the same module
#   difftest-sweep.sh on one generated program, one build, those variants
#
# and each must fail, naming the difference and the finding; with the real
# ptxlink the sweeps must pass, also on a program whose last kernel's
# __launch_bounds__ allow only the first launch (addrprep seed 8).
#
#   tests/difftest/sweep-selftest.sh [build-dir]      (default build)
#
# Exit 77 (skipped) without nvcc or ptxas.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(realpath "${1:-$ROOT/build}")
PATH=/usr/local/cuda/bin:$PATH
for t in nvcc ptxas; do
	command -v $t > /dev/null || { echo "SKIPPED: $t not found"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bad"
ln -s "$BUILD/ptxlink-run" "$tmp/bad/ptxlink-run"
cat > "$tmp/bad/ptxlink" << EOF
#!/usr/bin/env bash
out=
for a; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
"$BUILD/ptxlink" "\$@" || exit
case " \$* " in
*" --inline=always "*) sed -i '/st\.global/d' "\$out" ;;
*" --no-sroa "*) echo "in.ptx:1:1: warning: ir_verify: a finding made up by the self-test" >&2 ;;
esac
exit 0
EOF
chmod +x "$tmp/bad/ptxlink"
fails=0
# expect NAME STATUS LOG PATTERN...: the run exited STATUS, LOG says each PATTERN
expect() {
	local name=$1 want=$2 log=$3 p bad=0
	shift 3
	if [ "$(cat "$log.rc")" != "$want" ]; then
		echo "FAIL $name: exit $(cat "$log.rc"), expected $want"
		bad=1
	fi
	for p; do
		grep -q -E -- "$p" "$log" || { echo "FAIL $name: no '$p' in its output"; bad=1; }
	done
	if [ $bad = 1 ]; then
		tail -5 "$log"
		fails=$((fails + 1))
	else
		echo "ok $name"
	fi
}

cov() {  # BUILD-DIR LOG
	(cd "$ROOT" && ONLY=hw_immediates VARIANTS="always nosroa default" DOC='' OUT="$tmp/cov.tsv" JOBS=1 \
		tests/difftest/coverage.sh --diff "$1") > "$2" 2>&1
	echo $? > "$2.rc"
}
cov "$tmp/bad" "$tmp/cov-bad"
expect "coverage sweep, broken ptxlink" 1 "$tmp/cov-bad" \
	'imm_kernel: DIFFERENT always \(--inline=always\)' 'hw_immediates.ptx nosroa: .*1 verifier findings' '1 link, verifier or ptxas failures'
cov "$BUILD" "$tmp/cov-good"
expect "coverage sweep, real ptxlink" 0 "$tmp/cov-good" '3 variants .*, [0-9]+ kernel runs compared.* 0 link' '1 kernels gave the same'

# the default run (run-roundtrip's STAGES=1) fails on a verifier line too
(cd "$ROOT" && ONLY=hw_immediates STAGES=1 STAGE_ARGS=--no-sroa DOC='' OUT="$tmp/cov.tsv" JOBS=1 \
	tests/difftest/coverage.sh --diff "$tmp/bad") > "$tmp/rt-bad" 2>&1
echo $? > "$tmp/rt-bad.rc"
expect "coverage round trip, broken ptxlink" 1 "$tmp/rt-bad" '1 links failed or had verifier findings' \
	'hw_immediates.ptx: ptxlink --verify --no-sroa: .*ir_verify: a finding made up'

gen() {  # PTXLINK LOG
	PTXLINK=$1 PTXLINK_RUN=$BUILD/ptxlink-run "$ROOT/tests/difftest/difftest-sweep.sh" --gen globalopt \
		--seed 1 --count 1 --jobs 1 --builds nvcc-O3 --variants always,nosroa,default \
		--fail-dir "$tmp/fail" > "$2" 2>&1
	echo $? > "$2.rc"
}
gen "$tmp/bad/ptxlink" "$tmp/gen-bad"
expect "generated sweep, broken ptxlink" 1 "$tmp/gen-bad" \
	'FAIL nvcc-O3 k[0-9]+ l[12] always \(--inline=always\): the runs differ' 'FAIL nvcc-O3 nosroa: 1 verifier findings' \
	'always: [0-9]+ runs compared, [1-9][0-9]* differences'
gen "$BUILD/ptxlink" "$tmp/gen-good"
expect "generated sweep, real ptxlink" 0 "$tmp/gen-good" '[0-9]+ kernel runs compared, 0 differences' '^1 passed, 0 failed'
# addrprep seed 8's last kernel allows 32 threads: one launch, not a failed generator
PTXLINK=$BUILD/ptxlink PTXLINK_RUN=$BUILD/ptxlink-run "$ROOT/tests/difftest/difftest-sweep.sh" --gen addrprep \
	--seed 8 --count 1 --jobs 1 --builds nvcc-O3 --variants default --fail-dir "$tmp/fail" > "$tmp/gen-bounds" 2>&1
echo $? > "$tmp/gen-bounds.rc"
expect "generated sweep, a kernel bounded to 32 threads" 0 "$tmp/gen-bounds" '3 kernels, [0-9]+ kernel runs compared, 0 differences'
[ $fails = 0 ]
