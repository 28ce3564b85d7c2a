#!/usr/bin/env bash
# The yardstick that cannot be overfitted: generated call-heavy programs
# (tests/difftest/gen-yard.py), each built three ways, in two halves: one
# that ptxlink's constants may be fitted on, one held out to judge them.
#
# Usage: tools/bench/yard-bench.sh [-n N] [--seed S] [-j J] [-o FILE] [--flags "OPTS"]
#
#   -n N       programs (default 120): seeds S .. S+N-1
#   --seed S   the first seed (default 1)
#   -j J       programs built at once (default 1; the nvcc builds dominate)
#   -o FILE    the report (default docs/yard-benchmark.md)
#   --report   only write the report again from the last run's results
#   --flags OPTS  more ptxlink options for route p and the interpreter's
#               ptxlink output (say "--reroll"), as lto-bench.sh's
#
# Halves: an even seed is in the FIT half (what later work may tune
# ptxlink's constants on), an odd one in the HELD-OUT half (reported apart,
# never used for fitting).
#
# Routes, all for sm_80, on the files gen-yard.py writes (bench-lib.sh):
#   a  -rdc     nvcc -rdc=true --ptx -O3 per file, then route_sep (ptxas -c
#               -v each, nvlink)
#   c  -dlto    route_lto (nvcc -rdc=true -dlto -c per file, nvlink -dlto
#               -Xptxas -v), and nvlink -dlto -emit-ptx on its objects: the
#               PTX NVIDIA's link-time optimizer makes, for the run-time figure
#   p  ptxlink  route_ptxas: ptxlink -v --ptxas on route a's PTX
# Every kernel then runs on the interpreter (grid 2, block 48, n = 8) from
# the plain link (ptxlink --no-stages) and from ptxlink's output (default
# stages), compared by tests/difftest/difftest.sh: a difference is a
# FAILURE, printed and in the report, and the exit status is 1 (as it is
# when a program cannot be generated or built with nvcc -rdc).  The run-time
# figure is ptxlink-run --count on the plain link, ptxlink's output and
# -dlto's PTX: instructions, calls and local-memory instructions per thread,
# summed over the kernels.
#
# Environment: PTXLINK (default build/ptxlink, brought up to date first),
# PTXLINK_RUN (default build/ptxlink-run), CUDA_HOME, YARDBENCH_WORK
# (scratch, default build/yard-bench), YARDBENCH_CACHE (default
# $YARDBENCH_WORK/cache: the nvcc routes, keyed by the sources, the arch and
# nvcc's version, so a rerun builds only ptxlink's route).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=yard-bench
# shellcheck source=tools/bench/bench-lib.sh
. "$ROOT/tools/bench/bench-lib.sh"
WORK=${YARDBENCH_WORK:-$ROOT/build/yard-bench}
BENCH_CACHE=${YARDBENCH_CACHE:-$WORK/cache}
N=120 SEED=1 JOBS=1 OUT= ARCH=sm_80 REPORT_ONLY=0 PLK_FLAGS=()
while [ $# -gt 0 ]; do
    case "$1" in
    -n) N=$2; shift ;;
    --seed) SEED=$2; shift ;;
    -j) JOBS=$2; shift ;;
    -o) OUT=$2; shift ;;
    --report) REPORT_ONLY=1 ;;
    --flags) read -r -a PLK_FLAGS <<<"$2"; shift ;;
    -h | --help) sed -n '2,40p' "$0"; exit 0 ;;
    *) echo "yard-bench: unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done
for v in "$N" "$SEED" "$JOBS"; do
    [[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge 0 ] && [ "${#v}" -le 9 ] ||
        { echo "yard-bench: -n, --seed and -j take a number, not '$v'" >&2; exit 2; }
done
[ "$JOBS" -ge 1 ] && [ "$N" -ge 1 ] || { echo "yard-bench: -n and -j must be at least 1" >&2; exit 2; }
for t in "$PTXAS" "$NVLINK" "$NVCC" readelf sha256sum python3; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIPPED: $t not found"; exit 77; }
done
mkdir -p "$WORK"
case "$WORK" in /*) ;; *) WORK=$PWD/$WORK ;; esac
OUT=${OUT:-$ROOT/docs/yard-benchmark.md}
case "$OUT" in /*) ;; *) OUT=$PWD/$OUT ;; esac
bench_setup
RUN=${PTXLINK_RUN:-$ROOT/build/ptxlink-run}
[ -x "$RUN" ] || { echo "yard-bench: no interpreter $RUN (build ptxlink-run)" >&2; exit 1; }
cp "$RUN" "$WORK/ptxlink-run.$$" && mv -f "$WORK/ptxlink-run.$$" "$WORK/ptxlink-run"
RUN=$WORK/ptxlink-run
LAUNCH="--grid 2 --block 48 --arg buf:4096:pattern=2 --arg u32:8 --max-steps 50000000"

route_rdc() { # prog dir src
    local d=$2 f
    mkdir -p "$d/ptx"
    for f in "$3"/f*.cu; do
        (cd "$3" && "$NVCC" -arch="$ARCH" -rdc=true --ptx -O3 -w "$(basename "$f")" \
            -o "$d/ptx/$(basename "$f" .cu).ptx") >"$d/nvcc.log" 2>&1 ||
            { echo "n/a: nvcc -rdc=true fails on $(basename "$f")" >"$d/mode"; return 1; }
    done
    route_sep "$1" "$d" "$ARCH" 0 "$d"/ptx/*.ptx
}

route_dlto() { # prog dir src
    route_lto "$1" "$2" "$ARCH" 0 "$3" || return 1
    "$NVLINK" -arch="$ARCH" -dlto -nvvmpath="$NVVM" -emit-ptx "$2"/*.o "${DEVRT[@]}" \
        -o "$2/dlto.ptx" >"$2/emit.log" 2>&1 || rm -f "$2/dlto.ptx"
}

# "instructions calls local" per thread of one run, "- - -" if it stopped
count() { # ptx kernel words
    # shellcheck disable=SC2086
    "$RUN" "$1" "$2" --arg "buf:$((96 * $3 * 4)):zero" $LAUNCH --count 2>&1 >/dev/null |
        awk '/^count: / { t = $2; sub(/.*\(/, ""); printf "%s %.1f %.1f\n", $1, $4 / t, $6 / t; ok = 1 }
             END { if (!ok) print "- - -" }'
}

# The kernels of DIR on the interpreter: DIR/kernels.tsv gets per kernel
# "name same|DIFFERENT|stopped plain(3) ptxlink(3) dlto(3)".
interp() { # prog dir
    local W=$2 k w rc v f
    "$PTXLINK" --no-stages -arch="$ARCH" -o "$W/plain.ptx" "$W"/a/ptx/*.ptx >"$W/plain.log" 2>&1 ||
        die_ptxlink "the plain link of $1" "$W/plain.log" "$PTXLINK" --no-stages -arch="$ARCH" -o "$W/plain.ptx"
    "$PTXLINK" -arch="$ARCH" ${PLK_FLAGS[@]+"${PLK_FLAGS[@]}"} -o "$W/ptxlink.ptx" "$W"/a/ptx/*.ptx >"$W/ptxlink.log" 2>&1 ||
        die_ptxlink "ptxlink on $1" "$W/ptxlink.log" "$PTXLINK" -arch="$ARCH" ${PLK_FLAGS[@]+"${PLK_FLAGS[@]}"} -o "$W/ptxlink.ptx"
    : >"$W/kernels.tsv"
    while read -r k w; do
        # shellcheck disable=SC2086
        PTXLINK_RUN=$RUN "$ROOT/tests/difftest/difftest.sh" "$W/plain.ptx" "$W/ptxlink.ptx" "$k" \
            --arg "buf:$((96 * w * 4)):zero" $LAUNCH >"$W/diff.$k" 2>&1
        rc=$?
        case $rc in 0) v=same ;; 77) v=stopped ;; *) v=DIFFERENT
            { echo "yard-bench: FAILURE: $1 kernel $k: ptxlink's output differs from the plain link"
              sed 's/^/  /' "$W/diff.$k" | head -30; } >&2 ;;
        esac
        printf '%s\t%s' "$k" "$v" >>"$W/kernels.tsv"
        for f in plain ptxlink c/dlto; do
            if [ -f "$W/$f.ptx" ]; then printf '\t%s' "$(count "$W/$f.ptx" "$k" "$w")"; else printf '\t- - -'; fi
        done >>"$W/kernels.tsv"
        echo >>"$W/kernels.tsv"
    done < <(sed -n 's/^kernel //p' "$W/src/manifest")
}

one() { # seed
    local p=y$1 W=$WORK/progs/y$1
    rm -rf "$W"
    mkdir -p "$W"
    python3 "$ROOT/tests/difftest/gen-yard.py" "$1" -o "$W/src" ||
        { echo "yard-bench: FAILURE: gen-yard.py $1" >&2; return 1; }
    cached "yrdc-$(src_key rdc "$ARCH" "$W/src")" "$W/a" route_rdc "$p" "$W/a" "$W/src" ||
        { echo "yard-bench: $p: $(cat "$W/a/mode")" >&2; return 1; }
    cached "ydlto-$(src_key lto "$ARCH" "$W/src")" "$W/c" route_dlto "$p" "$W/c" "$W/src"
    route_ptxas "$p" "$W/p" "$ARCH" "$W"/a/ptx/*.ptx
    routes_stats "$W" a c p
    interp "$p" "$W"
    echo "yard-bench: $p done" >&2
}

t_start=$(now_ns)
if [ "$REPORT_ONLY" = 0 ]; then
    for ((s = SEED; s < SEED + N; s++)); do
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        one "$s" &
    done
    wait
    echo "$(( ($(now_ns) - t_start) / 1000000000 )) s at -j $JOBS" >"$WORK/timing"
fi

# The route (a or c) with the lower figure F (1 text, 3 stack, 4 spill of
# totals) and that figure.
winner() { # prog-dir F
    local r t best= br=
    for r in a c; do
        t=$(totals "$1/$r")
        [ -n "$t" ] || continue
        t=$(echo "$t" | cut -d' ' -f"$2")
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t br=$r; fi
    done
    echo "$br $best"
}

rname() { case $1 in a) echo -rdc ;; c) echo -dlto ;; p) echo ptxlink ;; esac; }

# The function where ptxlink's figure exceeds route R's most (stats.tsv
# column: 4 stack, 5 spill stores + loads, 7 SASS; a function inlined or
# absent counts 0, n×B copies n·B): "`name` (ptxlink X, -rdc Y)".
worst_fn() { # prog-dir R what
    awk -F'\t' -v what="$3" -v rn="$(rname "$2")" '
    function val(   v, a) {
        if ($8 != "sec" && $8 != "clone") return 0
        if (what == "stack") return $4 + 0
        if (what == "spill") return $5 + $6
        v = $7
        if (v ~ /×/) { split(v, a, "×"); sub(/–.*/, "", a[2]); return a[1] * a[2] }
        return v + 0
    }
    { h = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
      gsub("_INTERNAL_" h "_", "_INTERNAL_<h>_", $1)
      if (FILENAME ~ /\/p\/stats.tsv$/) pv[$1] += val(); else rv[$1] += val()
      seen[$1] = 1 }
    END { for (n in seen) if (best == "" || pv[n] - rv[n] > bd) { best = n; bd = pv[n] - rv[n] }
          printf "`%s` (ptxlink %d, %s %d)", best, pv[best], rn, rv[best] }' "$1/p/stats.tsv" "$1/$2/stats.tsv"
}

# One program's verdicts: "ok|miss ok|miss reason..."; the reason names
# each figure ptxlink misses, the route that wins it and the function.
judge() { # prog-dir
    local W=$1 p r v ss=ok sa=ok why=() f what
    read -r -a p <<<"$(totals "$W/p")"
    for f in 4:spill 3:stack 1:sass; do
        what=${f#*:}
        read -r r v <<<"$(winner "$W" "${f%%:*}")"
        [ -n "$r" ] || continue
        local mine=${p[$((${f%%:*} - 1))]}
        if [ "$what" = sass ]; then
            [ $((mine * 100)) -le $((v * 105)) ] && continue
            sa=miss
            why+=("SASS $mine > $v (+$(((mine - v) * 1000 / v / 10)).$(((mine - v) * 1000 / v % 10))%, $(rname "$r")): most in $(worst_fn "$W" "$r" sass)")
        else
            [ "$mine" -le "$v" ] && continue
            ss=miss
            why+=("$what $mine > $v ($(rname "$r")): most in $(worst_fn "$W" "$r" "$what")")
        fi
    done
    echo "$ss $sa $(printf '%s; ' "${why[@]}" | sed 's/; $//')"
}

# Per-program lines for the report, in $WORK/rows.tsv: seed half
# shapes mode a c p (each "text regs stack spill", or "-": read splits
# tabs, an empty field would vanish) ss sass reason.
tot() { local t; t=$(totals "$1"); echo "${t:--}"; }

collect() {
    local s W half j
    for ((s = SEED; s < SEED + N; s++)); do
        W=$WORK/progs/y$s
        half=FIT; [ $((s % 2)) = 1 ] && half=HELD-OUT
        if [ ! -f "$W/p/summary" ] || [ ! -f "$W/a/summary" ]; then
            printf 'y%s\t%s\tfailed\n' "$s" "$half"
            continue
        fi
        read -r -a j <<<"$(judge "$W")"
        printf 'y%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$half" \
            "$(sed -n 's/^# yard: \([^;]*\);.*/\1/p' "$W/src/manifest")" \
            "$(sed 's/^[^:]*: //' "$W/p/mode")" "$(tot "$W/a")" "$(tot "$W/c")" "$(tot "$W/p")" \
            "${j[0]}" "${j[1]}" "${j[*]:2}"
    done
}

# The interpreter's figures of one half: "kernels same different stopped
# counted ins calls local (plain) ... (ptxlink) ... (-dlto)", the sums over
# the kernels all three runs completed.
runtime_sums() { # half
    local s
    for ((s = SEED; s < SEED + N; s++)); do
        [ "$1" = FIT ] && [ $((s % 2)) = 1 ] && continue
        [ "$1" = HELD-OUT ] && [ $((s % 2)) = 0 ] && continue
        cat "$WORK/progs/y$s/kernels.tsv" 2>/dev/null
    done | awk -F'\t' '
    { n++; st[$2]++
      if ($3 ~ /^-/ || $4 ~ /^-/ || $5 ~ /^-/) next
      c++
      for (i = 3; i <= 5; i++) { split($i, a, " "); for (k = 1; k <= 3; k++) s[i, k] += a[k] } }
    END { printf "%d %d %d %d %d", n, st["same"], st["DIFFERENT"], st["stopped"], c
          for (i = 3; i <= 5; i++) for (k = 1; k <= 3; k++) printf " %.0f", s[i, k]
          printf "\n" }'
}

# The summary of one half from rows.tsv: "programs failed ss sass both
# Σstack(p c a) Σspill(p c a) Σtext(p c a) n3" (the sums over the n3
# programs all three routes built).
half_sums() { # half
    awk -F'\t' -v h="$1" '
    $2 != h { next }
    { n++ }
    $3 == "failed" { f++; next }
    { if ($8 == "ok") ss++; if ($9 == "ok") sa++; if ($8 == "ok" && $9 == "ok") both++
      if ($6 == "-") next
      split($5, a, " "); split($6, c, " "); split($7, p, " "); n3++
      st[1] += p[3]; st[2] += c[3]; st[3] += a[3]
      sp[1] += p[4]; sp[2] += c[4]; sp[3] += a[4]
      tx[1] += p[1]; tx[2] += c[1]; tx[3] += a[1] }
    END { printf "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", n, f, ss, sa, both,
              st[1], st[2], st[3], sp[1], sp[2], sp[3], tx[1], tx[2], tx[3], n3 }' "$WORK/rows.tsv"
}

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print (a == 0 ? "+0.0%" : "n/a"); else printf "%+.1f%%", (a - b) * 100 / b }'; }

# The report's summary table: one column per half.
summary_table() {
    local -a F H
    read -r -a F <<<"$(half_sums FIT)"
    read -r -a H <<<"$(half_sums HELD-OUT)"
    local -a RF RH
    read -r -a RF <<<"$(runtime_sums FIT)"
    read -r -a RH <<<"$(runtime_sums HELD-OUT)"
    echo "| | FIT half (even seeds) | HELD-OUT half (odd seeds) |"
    echo "|---|---:|---:|"
    echo "| programs (failed to build) | ${F[0]} (${F[1]}) | ${H[0]} (${H[1]}) |"
    echo "| ptxlink at or below the better of -rdc/-dlto on spills and stack | ${F[2]} of ${F[0]} | ${H[2]} of ${H[0]} |"
    echo "| ptxlink within 5% of the better's SASS | ${F[3]} of ${F[0]} | ${H[3]} of ${H[0]} |"
    echo "| both | ${F[4]} of ${F[0]} | ${H[4]} of ${H[0]} |"
    local k lab
    for k in 5:stack 8:spills 11:SASS; do
        lab=${k#*:} k=${k%%:*}
        echo "| Σ $lab: ptxlink / -dlto / -rdc | ${F[k]} / ${F[k + 1]} / ${F[k + 2]} ($(pct "${F[k]}" "${F[k + 1]}") vs -dlto, $(pct "${F[k]}" "${F[k + 2]}") vs -rdc) | ${H[k]} / ${H[k + 1]} / ${H[k + 2]} ($(pct "${H[k]}" "${H[k + 1]}") vs -dlto, $(pct "${H[k]}" "${H[k + 2]}") vs -rdc) |"
    done
    echo "| programs in the sums (all three routes built) | ${F[14]} | ${H[14]} |"
    echo "| kernels on the interpreter: same / DIFFERENT / both stopped | ${RF[1]} / ${RF[2]} / ${RF[3]} of ${RF[0]} | ${RH[1]} / ${RH[2]} / ${RH[3]} of ${RH[0]} |"
    for k in 5:instructions 6:calls 7:local-memory\ instructions; do
        lab=${k#*:} k=${k%%:*}
        echo "| run time, Σ $lab per thread: plain link / ptxlink / -dlto PTX | ${RF[k]} / ${RF[k + 3]} / ${RF[k + 6]} ($(pct "${RF[k + 3]}" "${RF[k + 6]}") vs -dlto) | ${RH[k]} / ${RH[k + 3]} / ${RH[k + 6]} ($(pct "${RH[k + 3]}" "${RH[k + 6]}") vs -dlto) |"
    done
    echo "| kernels in the run-time sums (all three runs completed) | ${RF[4]} | ${RH[4]} |"
}

# A program's run-time cell: Σ instructions/calls/local per thread over
# its kernels, plain · ptxlink · -dlto.
rt_cell() { # prog-dir
    awk -F'\t' '{ for (i = 3; i <= 5; i++) { split($i, a, " "); for (k = 1; k <= 3; k++) s[i, k] += a[k] } }
        END { for (i = 3; i <= 5; i++) printf "%s%.0f/%.0f/%.0f", (i > 3 ? " · " : ""), s[i, 1], s[i, 2], s[i, 3] }' "$1/kernels.tsv"
}

kernels_cell() { # prog-dir
    awk -F'\t' '{ n++; if ($2 != "same") o = o " " $1 " " $2 }
        END { if (o == "") printf "%d same", n; else printf "%d:%s", n, o }' "$1/kernels.tsv"
}

yard_report() {
    collect >"$WORK/rows.tsv"
    local h
    echo "# The generated yardstick: nvcc -rdc, nvcc -dlto and ptxlink on call-heavy programs"
    echo
    echo "<!-- generated by tools/bench/yard-bench.sh; do not edit by hand -->"
    echo "Generated by \`tools/bench/yard-bench.sh -n $N --seed $SEED${PLK_FLAGS[*]:+ --flags \"${PLK_FLAGS[*]}\"}\` ($(cat "$WORK/timing" 2>/dev/null || echo 'time not recorded') on 2 shared CPUs; a rerun with the nvcc builds cached in \`build/yard-bench/cache\` redoes only ptxlink's route and the interpreter runs; \`--report\` only rewrites this page; \`-h\` for options)."
    echo "ptxlink $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null)$(cd "$ROOT" && git diff --quiet HEAD -- . ':!*.md' 2>/dev/null || echo ' (with uncommitted changes)'),"
    echo "$("$PTXAS" --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1 | sed 's/^/CUDA /'); $N programs from \`tests/difftest/gen-yard.py\`, seeds $SEED to $((SEED + N - 1)), sm_80."
    echo
    echo "This is the yardstick later work is fitted on and judged on: ptxlink's constants may be tuned on the **FIT** half (even seeds) only; the **HELD-OUT** half (odd seeds) is reported apart and never used for fitting. Each program is 2 to 4 files of layered \`__device__\` functions (gen-calls.py's: structs by value and by reference, recursion, \`__noinline__\`, calls in loops and divergent branches) plus a device library file, with at least two of: calls in constant-trip loops NVVM unrolls (2 to 16, and 3x3 neighbour loops), float3/float4 library helpers by value, a large single-caller function whose local objects go by address into library calls, virtual dispatch on objects built on the device, a table of function pointers, math calls (the *shapes* column)."
    echo
    echo "Routes, each from the same sources: **-rdc** \`nvcc -rdc=true --ptx -O3\` per file, \`ptxas -c -v\` each, \`nvlink\`; **-dlto** \`nvcc -rdc=true -dlto -c\` per file, \`nvlink -dlto -Xptxas -v\`; **ptxlink** \`ptxlink -v --ptxas -Xptxas -v\` on route -rdc's PTX, in the compile mode it picks. Totals (**.text bytes · max registers · Σ stack · Σ spill bytes**) as in [lto-benchmark.md](lto-benchmark.md). A program is **at or below** when ptxlink's Σ spills and Σ stack are each at most the lower of the two peers', and **within 5%** when its .text bytes are at most 105% of the lower peer's. A miss names the figure, the route that wins it and the function where ptxlink exceeds that route most (inlined functions count 0; copies ptxas put into kernels count once each)."
    echo
    echo "Interpreter: every kernel runs (\`ptxlink-run\`, 2 blocks of 48 threads, n = 8) from the plain link (\`ptxlink --no-stages\`) and from ptxlink's output (default stages), compared buffer for buffer by \`tests/difftest/difftest.sh\`; the run-time figure is \`ptxlink-run --count\` on those two and on -dlto's PTX (\`nvlink -dlto -emit-ptx\` on route -dlto's objects): instructions, calls and local-memory instructions executed per thread, summed over the kernels."
    echo
    echo "## Summary"
    echo
    summary_table
    echo
    for h in FIT HELD-OUT; do
        echo "## Programs that miss: $h half"
        echo
        awk -F'\t' -v h="$h" '$2 == h && $3 == "failed" { print "- " $1 ": a route failed to build (see build/yard-bench/progs/" $1 ")"; n++ }
            $2 == h && ($8 != "ok" || $9 != "ok") && $3 != "failed" { print "- " $1 " (" $3 "): " $10; n++ }
            END { if (!n) print "None." }' "$WORK/rows.tsv"
        echo
    done
    echo "## Per program"
    echo
    echo "Run time: Σ over the kernels of instructions/calls/local-memory instructions per thread, plain link · ptxlink · -dlto."
    echo
    echo "| program | half | shapes | ptxlink's mode | -rdc | -dlto | ptxlink | spills, stack | SASS | kernels | run time |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    local s W row a c p best
    while IFS=$'\t' read -r -a row; do
        W=$WORK/progs/${row[0]}
        if [ "${row[2]}" = failed ]; then
            echo "| ${row[0]} | ${row[1]} | – | failed | – | – | – | – | – | – | – |"
            continue
        fi
        read -r best _ <<<"$(peer_best "$W")"
        read -r p _ <<<"${row[6]}"
        echo "| ${row[0]} | ${row[1]} | ${row[2]} | ${row[3]} | $(cell "${row[4]#-}") | $(cell "${row[5]#-}") | $(cell "${row[6]}") | ${row[7]} | $(pct "$p" "$best") | $(kernels_cell "$W") | $(rt_cell "$W") |"
    done <"$WORK/rows.tsv"
}

yard_report >"$OUT.tmp" && mv -f "$OUT.tmp" "$OUT"
echo "yard-bench: wrote $OUT" >&2
# a difference, or a program the generator or nvcc -rdc did not make, fails
! grep -q DIFFERENT "$WORK"/progs/y*/kernels.tsv 2>/dev/null && ! grep -q $'\tfailed$' "$WORK/rows.tsv"
