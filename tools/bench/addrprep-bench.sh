#!/usr/bin/env bash
# Address preparation's benchmark (issue 16): every corpus PTX file, and
# every corpus program linked, through ptxlink's default stages with
# --no-addrprep (before) and with each rewrite of --addrprep alone and all
# together (after); ptxas -c -v per function: registers, spill bytes
# (stores + loads), stack frame, and the SASS bytes of its .text section.
# A function is worse when any of the four grows.  Prints per rewrite how
# many functions got better and worse (and the totals), then every
# function that changed.  "default" is ptxlink without an --addrprep
# option (the rewrites ADDRPREP_DEFAULT in stages/stages.h names): the
# script exits 1 when that made any function worse.  VARIANTS="none
# narrow" measures only those (none first).
#
#   tools/bench/addrprep-bench.sh [build-dir] [corpus-dir]    (default build, corpus)
#   JOBS=N  files compiled at once (default 2); KEEP=1 keeps the scratch directory
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
CORPUS=${2:-corpus}
LINK=$BUILD/ptxlink
JOBS=${JOBS:-2}
export PATH=/usr/local/cuda/bin:$PATH
command -v ptxas >/dev/null || { echo "SKIPPED: ptxas not found"; exit 77; }
[ -x "$LINK" ] || { echo "addrprep-bench: build $LINK first" >&2; exit 2; }
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
VARIANTS=${VARIANTS:-"none narrow widen fold sink narrow,widen,fold,sink default"}

target() { sed -nE 's/^[[:space:]]*\.target[[:space:]]+(sm_[0-9a-z]+).*/\1/p' "$1" | head -1; }

# function registers spill frame sass, one line each, for one PTX file
measure() {
	local ptx=$1 arch=$2 out=$3
	ptxas -arch="$arch" -c -v "$ptx" -o "$out.o" 2>"$out.v" || return 1
	readelf -SW "$out.o" 2>/dev/null |
		sed -nE 's/^ *\[ *[0-9]+\] \.text\.([^ ]+) +[A-Z_]+ +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+).*/\1 \2/p' |
		while read -r fn hex; do echo "$fn $((16#$hex))"; done > "$out.sass"
	awk 'NR == FNR { sass[$1] = $2; next }
	     /Function properties for/ { f = $NF }
	     /bytes stack frame/ { frame[f] = $1; spill[f] = $5 + $9 }
	     /Used [0-9]+ registers/ && f != "" { regs[f] = $5 }
	     END { for (f in frame) print f, regs[f] + 0, spill[f] + 0, frame[f] + 0, sass[f] + 0 }' \
		"$out.sass" "$out.v" | sort
}

# One input (a file, or a program's directory) under every variant:
# lines "variant function regs spill frame sass".
one() {
	local in=$1 name=$2 dir=$tmp/$2 args
	mkdir -p "$dir"
	local first
	if [ -d "$in" ]; then first=$(ls "$in"/*.ptx | head -1); else first=$in; fi
	local arch; arch=$(target "$first")
	for v in $VARIANTS; do
		case $v in
		none) args=(--no-addrprep) ;;
		default) args=() ;;
		*) args=(--addrprep="$v") ;;
		esac
		if [ -d "$in" ]; then
			"$LINK" -arch="$arch" "${args[@]}" "$in"/*.ptx -o "$dir/$v.ptx" 2>/dev/null ||
				"$LINK" -arch="$arch" --strip-debug "${args[@]}" "$in"/*.ptx -o "$dir/$v.ptx" 2>/dev/null || return 0
		else
			"$LINK" "${args[@]}" "$in" -o "$dir/$v.ptx" 2>/dev/null || return 0
		fi
		measure "$dir/$v.ptx" "$arch" "$dir/$v" | sed "s|^|$v $name |" || return 0
	done
}
export -f one measure target
export LINK VARIANTS tmp

{
	for f in "$CORPUS"/ptx/*.ptx; do echo "$f $(basename "$f" .ptx)"; done
	for d in "$CORPUS"/ptx/*/; do ls "$d"/*.ptx >/dev/null 2>&1 && echo "${d%/} $(basename "$d")/"; done
} | xargs -P "$JOBS" -L 1 bash -c 'one "$0" "$1" > "$tmp/${1//\//_}.rows"'
cat "$tmp"/*.rows > "$tmp/all"

awk -v variants="$VARIANTS" '
	{ key = $2 " " $3; v[$1, key] = $4 " " $5 " " $6 " " $7; if ($1 == "none") keys[key] = 1 }
	END {
		n = split(variants, vs, " ")
		print "| rewrite | functions | better | worse | registers | spill bytes | stack frame | SASS bytes |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 2; i <= n; i++) {
			nf = better = worse = 0; split("0 0 0 0 0 0 0 0", t, " ")
			for (k in keys) {
				if (!((vs[i], k) in v)) continue
				split(v["none", k], b, " "); split(v[vs[i], k], a, " ")
				nf++; w = 0; g = 0
				for (j = 1; j <= 4; j++) {
					t[j] += b[j]; t[j + 4] += a[j]
					if (a[j] > b[j]) w = 1; if (a[j] < b[j]) g = 1
				}
				if (w) { worse++; bad[vs[i]] = bad[vs[i]] "\n  " k ": " v["none", k] " -> " v[vs[i], k] }
				else if (g) { better++; good[vs[i]] = good[vs[i]] "\n  " k ": " v["none", k] " -> " v[vs[i], k] }
			}
			printf "| %s | %d | %d | %d | %d -> %d | %d -> %d | %d -> %d | %d -> %d |\n", vs[i], nf, better, worse, t[1], t[5], t[2], t[6], t[3], t[7], t[4], t[8]
		}
		print ""
		for (i = 2; i <= n; i++) {
			if (good[vs[i]] != "") print "better with " vs[i] " (registers spill frame sass):" good[vs[i]]
			if (bad[vs[i]] != "") print "worse with " vs[i] " (registers spill frame sass):" bad[vs[i]]
		}
	}' "$tmp/all" | tee "$tmp/report"
# the rule that decides the default: no function worse
! grep -q "^worse with default " "$tmp/report"
