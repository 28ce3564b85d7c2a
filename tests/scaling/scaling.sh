#!/usr/bin/env bash
# Linear on every input: each row of tests/scaling/gen.py is linked at size
# n and 2n; doubling the input may at most about double the time and the
# peak memory.  Time is the least CPU time (user and system, as the machine
# may be busy) of 3 runs, memory the largest peak RSS (both from wait4);
# a ratio above 2.5 fails the row, if it does again with 5 runs (a busy
# machine's caches make a larger input slower than its instructions).
# Times under 0.1 s and peaks under 32 MB count as that much, so that
# noise in a short run is no ratio.
#
# Usage: tests/scaling/scaling.sh PTXLINK [ROW...]     (default: every row)
# SCALING_KEEP=DIR keeps the inputs in DIR.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
[ $# -ge 1 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
ptxlink=$(exe_arg "$1")
shift
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: needs python3"
	exit 77
fi

# row and n: the larger size runs in well under a second once linear
sizes="archive-chain 1000
archive-empty 8000
dwarf-abbrev 20000
globals 40000
calls 20000
vtables 2000
indirect-sites 2000
indirect-kernels 4000
sections 800
inputs 2000"
rows=${*:-$(echo "$sizes" | cut -d' ' -f1)}
if [ -n "$SCALING_KEEP" ]; then
	mkdir -p "$SCALING_KEEP" && tmp=$SCALING_KEEP
else
	scratch scaling
fi

# run DIR RUNS: "seconds kilobytes" of ptxlink on DIR/args
run() {
	python3 - "$1" "$ptxlink" "$2" <<'END'
import os, sys
d, exe, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = open(os.path.join(d, "args")).read().split("\n")[:-1]
best, peak = None, 0
for _ in range(runs):
    pid = os.fork()
    if pid == 0:
        os.chdir(d)
        os.dup2(os.open("err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        os.execv(exe, [exe, "-o", "out.ptx"] + args)
    _, status, ru = os.wait4(pid, 0)
    if status:
        print("FAIL ptxlink failed in %s:" % d)
        sys.stdout.write("".join(open(os.path.join(d, "err")).readlines()[:5]))
        sys.exit(1)
    t = ru.ru_utime + ru.ru_stime
    best = t if best is None else min(best, t)
    peak = max(peak, ru.ru_maxrss)
print("%.3f %d" % (best, peak))
END
}

# ratio A B FLOOR: B/A, each at least FLOOR, with two decimals
ratio() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { a = a < f ? f : a; b = b < f ? f : b; printf "%.2f", b / a }'
}

# measure ROW N RUNS: "time memory time memory" at N and 2N
measure() {
	local a b=
	a=$(run "$tmp/$1.$2" "$3") && b=$(run "$tmp/$1.$((2 * $2))" "$3") || { echo "$a$b"; return 1; }
	echo "$a $b"
}

over() {
	awk -v r="$1" 'BEGIN { exit !(r > 2.5) }'
}

for row in $rows; do
	n=$(echo "$sizes" | awk -v r="$row" '$1 == r { print $2 }')
	[ -n "$n" ] || { echo "$0: no row '$row'" >&2; exit 2; }
	for size in "$n" $((2 * n)); do
		rm -rf "$tmp/$row.$size"
		python3 "$here/gen.py" "$row" "$size" "$tmp/$row.$size" || exit 2
	done
	for runs in 3 5; do
		res=$(measure "$row" "$n" $runs) || { echo "$res"; fail=$((fail+1)); continue 2; }
		set -- $res
		tr=$(ratio "$1" "$3" 0.1)
		mr=$(ratio "$2" "$4" 32768)
		over "$tr" || over "$mr" || break
	done
	printf '%-17s n=%-6s %6s s %7s KB   2n: %6s s %7s KB   x%s time, x%s memory\n' \
		"$row" "$n" "$1" "$2" "$3" "$4" "$tr" "$mr"
	check "$row: time x$tr" "! over $tr"
	check "$row: memory x$mr" "! over $mr"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
