#!/usr/bin/env bash
# Linear on every input: each row of tests/scaling/gen.py is linked at size
# n and 2n; doubling the input may at most about double the time and the
# peak memory.  Time is the least CPU time (user and system, as the machine
# may be busy) of 3 runs, memory the largest peak RSS (both from wait4);
# a ratio above 2.5 fails the row only if it holds on a second look with 5
# runs and a third size, 4n: then the time from n to 4n must stay within
# 2.5 x 2.5.  A cost that grows faster than n does so at every doubling
# (n^2 gives x16 over two), while a machine whose caches the larger input
# just outgrows slows one doubling alone (seen on CI: x2.88 at n=20000 on
# one step, x1.8 on the next).
# Times under 0.1 s and peaks under 32 MB count as that much, so that
# noise in a short run is no ratio.
# A row that fails that too gets a last look where valgrind is found: the
# instructions executed at n and 2n (callgrind, exact and the same on a
# busy machine) may at most x2.2.  One huge function whose IR outgrows the
# caches slows every walk over it at each doubling while its work stays
# linear (byvalue-calls, one kernel of n calls: x2.4 a doubling in
# time from n = 1,000 to 16,000, instructions x2.00 and x2.00); a cost that
# grows faster than n executes more instructions too.
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
sizes="archive-chain 2000
inline-always 1000
inline-auto 1000
inline-huge 1000
inline-never 1000
open-always 1000
open-auto 1000
open-huge 1000
open-never 1000
archive-empty 8000
dwarf-abbrev 20000
globals 40000
never-written 4000
calls 20000
vtables 2000
indirect-sites 2000
indirect-kernels 4000
sections 800
inputs 2000
same-shape 4000
same-code 4000
merge-chains 2000
param-chain 5000
locals 4000
join-chain 8000
move-chain 60
lend-chain 2000
byvalue-calls 4000
debug-depots 8000
labels 8000
reroll 8000
reroll-any 8000
reroll-branches 8000
reroll-steps 8000
addrprep-calls 8000
fold-chain 8000
loop-chain 8000
counted-cycles 2000"
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

# instructions DIR: what ptxlink executes on DIR/args, counted by callgrind
instructions() {
	(cd "$1" && mapfile -t args <args &&
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$ptxlink" -o out.ptx "${args[@]}" 2>&1 >/dev/null) |
		awk '/Collected :/ { print $NF }'
}

# ratio A B FLOOR: B/A, each at least FLOOR, with two decimals
ratio() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { a = a < f ? f : a; b = b < f ? f : b; printf "%.2f", b / a }'
}

over() {
	awk -v r="$1" -v m="${2:-2.5}" 'BEGIN { exit !(r > m) }'
}

# inputs ROW SIZE...: generate ROW at each SIZE not generated yet
inputs() {
	local row=$1 size
	shift
	for size; do
		[ -d "$tmp/$row.$size" ] && continue
		python3 "$here/gen.py" "$row" "$size" "$tmp/$row.$size" || exit 2
	done
}

for row in $rows; do
	n=$(echo "$sizes" | awk -v r="$row" '$1 == r { print $2 }')
	[ -n "$n" ] || { echo "$0: no row '$row'" >&2; exit 2; }
	rm -rf "$tmp/$row".*
	inputs "$row" "$n" $((2 * n))
	a=$(run "$tmp/$row.$n" 3) && b=$(run "$tmp/$row.$((2 * n))" 3) ||
		{ echo "$a$b"; fail=$((fail+1)); continue; }
	set -- $a $b
	tr=$(ratio "$1" "$3" 0.1) mr=$(ratio "$2" "$4" 32768) tr4=
	if over "$tr" || over "$mr"; then
		# the second look: 5 runs at n, 2n and 4n
		inputs "$row" $((4 * n))
		a=$(run "$tmp/$row.$n" 5) && b=$(run "$tmp/$row.$((2 * n))" 5) &&
			c=$(run "$tmp/$row.$((4 * n))" 5) ||
			{ echo "$a$b$c"; fail=$((fail+1)); continue; }
		set -- $a $b $c
		tr=$(ratio "$1" "$3" 0.1) mr=$(ratio "$2" "$4" 32768)
		tr4=$(ratio "$1" "$5" 0.1)
	fi
	printf '%-17s n=%-6s %6s s %7s KB   2n: %6s s %7s KB   x%s time, x%s memory%s\n' \
		"$row" "$n" "$1" "$2" "$3" "$4" "$tr" "$mr" "${tr4:+, 4n: $5 s x$tr4 time}"
	ir=
	if [ -n "$tr4" ] && over "$tr4" 6.25 && command -v valgrind >/dev/null 2>&1; then
		# the last look: instructions at n and 2n
		i1=$(instructions "$tmp/$row.$n") i2=$(instructions "$tmp/$row.$((2 * n))")
		if [ -n "$i1" ] && [ -n "$i2" ]; then
			ir=$(ratio "$i1" "$i2" 1)
			echo "    instructions: $i1 at n, $i2 at 2n: x$ir"
		fi
	fi
	if [ -n "$ir" ]; then
		check "$row: instructions x$ir from n to 2n (time x$tr4 from n to 4n)" "! over $ir 2.2"
	elif [ -n "$tr4" ]; then
		check "$row: time x$tr4 from n to 4n" "! over $tr4 6.25"
	else
		check "$row: time x$tr" "! over $tr"
	fi
	check "$row: memory x$mr" "! over $mr"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
