# Shared by the test scripts (source it): argument checks, finding ptxas,
# a scratch directory, time limits.

# The path of an executable argument, made absolute; exits 2 if it is not one.
exe_arg() {
	case $1 in /*) p=$1 ;; *) p=$(pwd)/$1 ;; esac
	[ -x "$p" ] || { echo "$0: '$1' is not an executable" >&2; exit 2; }
	echo "$p"
}

dir_arg() {
	[ -d "$1" ] || { echo "$0: '$1' is not a directory" >&2; exit 2; }
}

# CUDA's ptxas on PATH, or the test is reported skipped (exit 77).
need_ptxas() {
	PATH=/usr/local/cuda/bin:$PATH
	export PATH
	if ! command -v ptxas >/dev/null 2>&1; then
		echo "SKIPPED: ptxas not found"
		exit 77
	fi
}

# need_cuda TOOL...: CUDA's bin on PATH, or the test is reported skipped
# (exit 77) when a tool is not found.
need_cuda() {
	PATH=/usr/local/cuda/bin:$PATH
	export PATH
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || { echo "SKIPPED: $t not found"; exit 77; }
	done
}

# cubin_text CUBIN: the bytes of its .text sections (its SASS)
cubin_text() {
	local s=0 h
	for h in $(readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 ~ /^\.text\./ { print $5 }'); do
		s=$((s + 16#$h))
	done
	echo $s
}

# dlink_registered OBJ: the __cudaRegisterLinkedBinary_<id> functions a
# device-link object defines, sorted
dlink_registered() {
	nm "$1" | awk '$2 == "T" && $3 ~ /^__cudaRegisterLinkedBinary_/ { print $3 }' | sort
}

# CUDA's ptxas on PATH if it is there: $have_ptxas is 1, else 0 and the
# checks that need it are skipped, which the test says.
find_ptxas() {
	PATH=/usr/local/cuda/bin:$PATH
	export PATH
	have_ptxas=0
	if command -v ptxas >/dev/null 2>&1; then
		have_ptxas=1
	else
		echo "SKIPPED (in part): ptxas not found, its checks are not run"
	fi
}

# $tmp: a scratch directory removed on exit.
scratch() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
}

# A scratch directory (scratch NAME) to work in, whose t/ is $TMPDIR: the
# tools' temporaries go there, and clean says none stayed; $root, the
# source tree.
tools_scratch() {
	root=$(cd "$(dirname "$0")/.." && pwd)
	scratch "$1"
	cd "$tmp" || exit 2
	mkdir t
	export TMPDIR=$tmp/t
}
clean() { [ -z "$(ls t)" ]; }

# $limit and $ptxas_limit: command prefixes bounding ptxlink and ptxas runs.
limits() {
	limit= ptxas_limit=
	if command -v timeout >/dev/null 2>&1; then
		limit="timeout $1"
		ptxas_limit="timeout $2"
	fi
}

# check NAME CONDITION: CONDITION (a command, eval'd) counts as a pass or a
# FAIL line.
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $1"; fi
}

# report NAME WHY DETAIL: one item's line, `ok NAME (DETAIL)` when WHY is
# empty, else `FAIL NAME: WHY`; counted in $pass or $fail.
report() {
	if [ -z "$2" ]; then
		echo "ok $1 ($3)"
		pass=$((pass + 1))
	else
		echo "FAIL $1: $2"
		fail=$((fail + 1))
	fi
}

# finish TEST [WHAT]: the last line, `TEST: N passed, M failed` (with WHAT,
# a failure when no WHAT was found at all); the status says whether all
# passed.
finish() {
	if [ -n "${2:-}" ] && [ $((pass + fail)) -eq 0 ]; then
		echo "FAIL: no $2"
		fail=1
	fi
	echo "$1: $pass passed, $fail failed"
	[ $fail -eq 0 ]
}

# A fatbinary's images, as "elf 80 ptx 90 " (kind and sm of each), read
# from its headers (kind at +0, arch at +28 of each entry), since this
# CUDA has no cuobjdump and fatbinary lists nothing.
fatbin_images() {
	hs=$(od -An -tu2 -j6 -N2 "$1" | tr -d ' ')
	size=$(od -An -tu8 -j8 -N8 "$1" | tr -d ' ')
	at=$hs
	while [ "$at" -lt $((hs + size)) ]; do
		kind=$(od -An -tu2 -j$at -N2 "$1" | tr -d ' ')
		ehs=$(od -An -tu4 -j$((at + 4)) -N4 "$1" | tr -d ' ')
		esize=$(od -An -tu8 -j$((at + 8)) -N8 "$1" | tr -d ' ')
		sm=$(od -An -tu4 -j$((at + 28)) -N4 "$1" | tr -d ' ')
		printf '%s %s ' "$([ "$kind" = 2 ] && echo elf || echo ptx)" "$sm"
		at=$((at + ehs + esize))
	done
}
