# Shared set-up of the differential runs (difftest-programs.sh,
# difftest-depot.sh), sourced after their options are read:
#   difftest_setup NAME FAILDIR-DEFAULT
# finds nvcc and ptxas (exit 77, skipped, without them), PTXLINK and
# PTXLINK_RUN (default build/ptxlink and ptxlink-run beside it), clang
# unless clang_ok=0, and sets faildir (unless given), work (kept in $keep
# or a temporary removed at exit) and limit (a 300 s timeout per command).
difftest_setup() {
	local name=$1 faildefault=$2 t b
	PATH=/usr/local/cuda/bin:$PATH
	export PATH
	for t in nvcc ptxas; do
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

# one SEED for every seed from $seed, $count of them, $jobs at a time.
difftest_run_seeds() {
	local s running=0
	for ((s = seed; s < seed + count; s++)); do
		if [ $running -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
		one "$s" &
		running=$((running + 1))
	done
	wait
}
