#!/usr/bin/env bash
# Depot repacking's benchmark (issue 13): for every corpus PTX file with a
# __local_depot, each function's depot bytes and ptxas's stack frame before
# (ptxlink --no-depot) and after (ptxlink with every default stage), beside
# clang's frame for the same function where the corpus has clang's PTX of
# the same source (clang_NAME.ARCH.ptx beside NAME.ARCH.ptx).  Prints a
# Markdown table and the totals; exits 1 if any function's frame grew.
#
#   tools/bench/depot-bench.sh [build-dir] [corpus-dir]     (default build, corpus)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
CORPUS=${2:-corpus}
LINK=$BUILD/ptxlink
export PATH=/usr/local/cuda/bin:$PATH
command -v ptxas >/dev/null || { echo "SKIPPED: ptxas not found"; exit 77; }
[ -x "$LINK" ] || { echo "depot-bench: build $LINK first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# function -> depot bytes, from PTX
depots() {
	awk '/^[ \t]*(\.visible |\.weak |\.extern )*\.(entry|func)/ {
		name = $0; sub(/\.func[ \t]*\([^)]*\)/, ".func", name)
		sub(/\(.*/, "", name); n = split(name, w, /[ \t]+/); name = w[n]
		if (name == "" ) { getline; name = $1; sub(/\(.*/, "", name) }
	}
	/__local_depot[0-9]+\[/ && /\.local/ { s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); print name, s }' "$1"
}

# function -> ptxas stack frame bytes
frames() {
	ptxas -arch="$2" -c -v "$1" -o "$tmp/x.o" 2>&1 |
		awk '/Function properties for/ { f = $NF }
		     /bytes stack frame/ && f != "" { print f, $1; f = "" }'
}

target() { sed -nE 's/^[[:space:]]*\.target[[:space:]]+(sm_[0-9a-z]+).*/\1/p' "$1" | head -1; }

echo "| file | function | depot bytes before | after | ptxas frame before | after | clang's frame |"
echo "|---|---|---:|---:|---:|---:|---:|"
worse=0 nfun=0 nsmaller=0 db=0 da=0 fb=0 fa=0
for f in "$CORPUS"/ptx/*.ptx; do
	grep -q __local_depot "$f" || continue
	b=$(basename "$f" .ptx)
	arch=$(target "$f")
	"$LINK" --no-depot "$f" -o "$tmp/before.ptx" 2>/dev/null || { echo "depot-bench: ptxlink fails on $f" >&2; worse=1; continue; }
	"$LINK" "$f" -o "$tmp/after.ptx" 2>/dev/null || { echo "depot-bench: ptxlink fails on $f" >&2; worse=1; continue; }
	depots "$tmp/before.ptx" | sort > "$tmp/db"
	depots "$tmp/after.ptx" | sort > "$tmp/da"
	frames "$tmp/before.ptx" "$arch" | sort > "$tmp/fb"
	frames "$tmp/after.ptx" "$arch" | sort > "$tmp/fa"
	: > "$tmp/fc"
	c="$CORPUS/ptx/clang_$b.ptx"
	[ -f "$c" ] && frames "$c" "$(target "$c")" | sort > "$tmp/fc"
	while read -r fn bytes; do
		after=$(awk -v f="$fn" '$1 == f { print $2 }' "$tmp/da")
		after=${after:-0}
		fbv=$(awk -v f="$fn" '$1 == f { print $2 }' "$tmp/fb")
		fav=$(awk -v f="$fn" '$1 == f { print $2 }' "$tmp/fa")
		fcv=$(awk -v f="$fn" '$1 == f { print $2 }' "$tmp/fc")
		echo "| $b | $fn | $bytes | $after | ${fbv:-?} | ${fav:-?} | ${fcv:--} |"
		nfun=$((nfun + 1))
		db=$((db + bytes)) da=$((da + after))
		fb=$((fb + ${fbv:-0})) fa=$((fa + ${fav:-0}))
		[ "${fav:-0}" -lt "${fbv:-0}" ] && nsmaller=$((nsmaller + 1))
		if [ "${fav:-0}" -gt "${fbv:-0}" ]; then
			echo "depot-bench: $b $fn: frame grew from $fbv to $fav" >&2
			worse=1
		fi
	done < "$tmp/db"
done
echo
echo "$nfun functions with a depot: depots $db -> $da bytes, ptxas frames $fb -> $fa bytes; $nsmaller frames smaller, $([ $worse = 0 ] && echo none || echo SOME) larger"
exit $worse
