# Shell shared by the benchmarks that compile corpus programs several ways
# (tools/bench/link-bench.sh, tools/bench/lto-bench.sh).  Sourced, not run: the
# caller sets ROOT (the checkout), BENCH (its name, for messages) and, before
# bench_setup, WORK (its scratch directory); PTXLINK may name the binary.
#
# Routes, each into a directory DIR holding final.cubin, ptxas.v (ptxas -v's
# output), mode (how it ran, or why not) and ms: route_sep (separate
# compilation of -rdc PTX: ptxas -c each, nvlink), route_lto (nvcc -dlto from
# the CUDA sources); route_stats turns DIR into stats.tsv and summary,
# route_totals and func_table read those.

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PTXAS=$CUDA_HOME/bin/ptxas
NVLINK=$CUDA_HOME/bin/nvlink
NVCC=$CUDA_HOME/bin/nvcc
DEVRT=(-L"$CUDA_HOME/targets/x86_64-linux/lib" -lcudadevrt)

# The binary measured and the nvvm shim; after the caller's option parsing.
bench_setup() {
    # The binary measured is the tree's: build/ptxlink brought up to date (an
    # incremental build; a stale binary would report code that no longer exists).
    if [ -z "${PTXLINK:-}" ]; then
        PTXLINK=$ROOT/build/ptxlink
        echo "$BENCH: bringing $PTXLINK up to date" >&2
        { if [ ! -f "$ROOT/build/CMakeCache.txt" ]; then
            cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=Release || exit 1
          fi
          cmake --build "$ROOT/build" -j2 --target ptxlink; } >"${TMPDIR:-/tmp}/$BENCH-build.$$.log" 2>&1 ||
            { echo "$BENCH: build failed:" >&2; tail -20 "${TMPDIR:-/tmp}/$BENCH-build.$$.log" >&2; exit 1; }
        rm -f "${TMPDIR:-/tmp}/$BENCH-build.$$.log"
    fi
    case "$PTXLINK" in /*) ;; *) PTXLINK=$PWD/$PTXLINK ;; esac
    [ -x "$PTXLINK" ] || { echo "$BENCH: $PTXLINK is not an executable" >&2; exit 1; }

    mkdir -p "$WORK"
    # Measure a snapshot: build/ is shared, and a rebuild during the run would
    # mix two binaries (or fail with "text file busy"/"permission denied").
    PTXLINK_SRC=$PTXLINK
    cp "$PTXLINK_SRC" "$WORK/ptxlink.$$" && mv -f "$WORK/ptxlink.$$" "$WORK/ptxlink" ||
        { echo "$BENCH: cannot copy $PTXLINK_SRC" >&2; exit 1; }
    PTXLINK=$WORK/ptxlink
    NVVM=$WORK/nvvm # nvvm shim: nvlink -dlto wants <nvvm>/lib64/libnvvm.so
    mkdir -p "$NVVM/lib64"
    ln -sfn "$CUDA_HOME/nvvm/bin" "$NVVM/bin"
    ln -sfn "$CUDA_HOME/nvvm/libdevice" "$NVVM/libdevice"
    ln -sf "$CUDA_HOME"/lib/libnvvm.so* "$NVVM/lib64/" 2>/dev/null ||
        ln -sf "$CUDA_HOME"/nvvm/lib64/libnvvm.so* "$NVVM/lib64/"
}

now_ns() { date +%s%N; }
ms_since() { echo $((($(now_ns) - $1) / 1000000)); }

# ptxlink failures are findings, not something to work around.
die_ptxlink() { # what log command...
    local what=$1 log=$2
    shift 2
    {
        echo "$BENCH: FAILURE ($what)"
        echo "  command: $*"
        echo "  output:"
        sed 's/^/    /' "$log" | head -40
    } >&2
    exit 1
}

target_of() { sed -n 's/^[[:space:]]*\.target[[:space:]]\{1,\}\([a-z0-9_]*\).*/\1/p' "$1" | head -n1; }

# nvlink, adding the device runtime only when the link needs it.
nvlink_cubins() { # arch out log cubins...
    local arch=$1 out=$2 log=$3
    shift 3
    if "$NVLINK" -arch="$arch" "$@" -o "$out" >"$log" 2>&1; then
        echo "nvlink"
    elif "$NVLINK" -arch="$arch" "$@" "${DEVRT[@]}" -o "$out" >"$log" 2>&1; then
        echo "nvlink -lcudadevrt"
    else
        return 1
    fi
}

# ---------------------------------------------------------------------------
# Statistics of one route: DIR/ptxas.v (ptxas -v output) + DIR/final.cubin
#   -> DIR/stats.tsv: name entry regs stack spst spld sass status
#      status: sec (own .text section), clone (copied into kernels' .text in
#      whole-program mode), dropped (compiled by ptxas -c but not in the
#      final cubin), inl (no trace: inlined everywhere)
#   -> DIR/summary: nsec nkern nbodies textbytes
# Registers: sh_info >> 24 of the .text section (ptxas -v prints registers
# only for entries); falls back to ptxas' "Used N registers".
# ---------------------------------------------------------------------------
route_stats() {
    local d=$1
    readelf -S -W "$d/final.cubin" 2>/dev/null >"$d/sections.txt"
    readelf -s -W "$d/final.cubin" 2>/dev/null >"$d/symbols.txt"
    awk -v out="$d/stats.tsv" -v sumf="$d/summary" '
    function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
    function num(s) { return (s ~ /^0x/) ? hex(s) : s + 0 }
    function add(n) { if (!(n in known)) { known[n] = 1; order[++nn] = n } }
    FILENAME == ARGV[1] {
        if ($0 ~ /Compiling entry function/) {
            s = $0; sub(/.*function \047/, "", s); sub(/\047.*/, "", s)
            entry[s] = 1; cur = s; add(s)
        } else if ($0 ~ /Function properties for /) {
            s = $0; sub(/.*properties for /, "", s); fn = s; want = 1; add(s); inv[s] = 1
        } else if (want && $0 ~ /stack frame/) {
            if (!(fn in stk)) { stk[fn] = $1; sst[fn] = $5; sld[fn] = $9 }
            want = 0
        } else if ($0 ~ /Used [0-9]+ registers/) {
            for (i = 1; i < NF; i++) if ($i == "Used") used[cur] = $(i + 1)
        }
        next
    }
    FILENAME == ARGV[2] {
        s = $0
        if (s !~ /\] \.text\./) next
        sub(/^[^]]*\] */, "", s); split(s, a, " ")
        n = substr(a[1], 7); sz = hex(a[5])
        nsec[n]++; secsz[n] += sz; if (!(n in reg)) reg[n] = int(num(a[9]) / 16777216)
        if (!(n in smin) || sz < smin[n]) smin[n] = sz
        if (!(n in smax) || sz > smax[n]) smax[n] = sz
        totsec++; totbytes += sz; add(n)
        next
    }
    FILENAME == ARGV[3] {
        if ($4 != "FUNC") next
        n = $NF
        if (n !~ /^\$/) next
        s = substr(n, 2); p = index(s, "$"); if (p == 0) next
        f = substr(s, p + 1); sz = num($3)
        ncl[f]++
        if (!(f in cmin) || sz < cmin[f]) cmin[f] = sz
        if (!(f in cmax) || sz > cmax[f]) cmax[f] = sz
        add(f)
    }
    function szcell(cnt, lo, hi) {
        if (cnt == 1) return lo
        return cnt "×" (lo == hi ? lo : lo "–" hi)
    }
    END {
        nk = 0; nb = 0; nd = 0
        for (i = 1; i <= nn; i++) {
            n = order[i]; e = (n in entry) ? 1 : 0
            if (n in nsec) {
                st = "sec"; r = reg[n]; if (r == 0) r = (n in used) ? used[n] : "–"
                sass = szcell(nsec[n], smin[n], smax[n])
                if (e) nk++; else { nb += nsec[n]; nd++ }
            } else if (n in ncl) {
                st = "clone"; r = "–"; sass = szcell(ncl[n], cmin[n], cmax[n]); nb += ncl[n]; nd++
            } else if (n in inv) {
                st = "dropped"; r = "–"; sass = "–"
            } else { st = "inl"; r = "–"; sass = "–" }
            if (n in used && st == "sec" && r == "") r = used[n]
            printf "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", n, e, r, \
                (n in stk) ? stk[n] : "–", (n in sst) ? sst[n] : "–", (n in sld) ? sld[n] : "–", sass, st > out
        }
        printf "%d %d %d %d %d\n", totsec, nk, nd, nb, totbytes > sumf
    }' "$d/ptxas.v" "$d/sections.txt" "$d/symbols.txt"
}

# routes_stats W R...: route_stats on each W/R that built a cubin; the
# others get an empty table and no summary.
routes_stats() {
    local w=$1 r; shift
    for r in "$@"; do
        if [ -f "$w/$r/ms" ] && [ -f "$w/$r/final.cubin" ]; then
            route_stats "$w/$r"
        else
            : >"$w/$r/stats.tsv"
            rm -f "$w/$r/summary"
        fi
    done
}

# ---------------------------------------------------------------------------
# Section 1: per-program routes
# ---------------------------------------------------------------------------
route_sep() { # prog dir arch debug files...
    local prog=$1 d=$2 arch=$3 dbg=$4
    shift 4
    local t0 f b in cubins=()
    mkdir -p "$d"
    : >"$d/ptxas.v"
    t0=$(now_ns)
    for f in "$@"; do
        b=$(basename "$f" .ptx)
        in=$f
        if [ "$dbg" = 1 ]; then
            in=$d/$b.nodebug.ptx
            # the input minus its debug info, nothing else: no stages; one
            # file of a multi-file program has undefined references
            "$PTXLINK" --no-stages --allow-undefined --strip-debug -o "$in" "$f" >"$d/strip.log" 2>&1 ||
                die_ptxlink "ptxlink --strip-debug on $prog" "$d/strip.log" "$PTXLINK" --no-stages --allow-undefined --strip-debug -o "$in" "$f"
        fi
        "$PTXAS" -arch="$arch" -v -c "$in" -o "$d/$b.cubin" >>"$d/ptxas.v" 2>&1 ||
            { echo "ptxas -c failed on $in" >"$d/mode"; return 1; }
        cubins+=("$d/$b.cubin")
    done
    local how
    how=$(nvlink_cubins "$arch" "$d/final.cubin" "$d/nvlink.log" "${cubins[@]}") ||
        { echo "nvlink failed: $(head -1 "$d/nvlink.log")" >"$d/mode"; return 1; }
    echo "$(ms_since "$t0")" >"$d/ms"
    echo "ptxas -c ×$# + $how" >"$d/mode"
}

# Routes that compile CUDA sources are slow (nvcc, NVVM) and depend only on
# the inputs and the toolkit: with BENCH_CACHE set, cached keeps a route's
# directory there under such a key, and a rerun copies it back.
src_key() { # route arch src... (directories, or .cu files with the headers beside them)
    local files=() s f
    for s in "${@:3}"; do
        case "$s" in
        *.cu) files+=("$s" "$(dirname "$s")"/*.h) ;;
        *) files+=("$s"/*)
           while IFS= read -r f; do files+=("$f"); done < <(find "$s" -mindepth 2 -type f | LC_ALL=C sort) ;;
        esac
    done
    { echo "$1 $2"; "$NVCC" --version | tail -2; cat "${files[@]}" 2>/dev/null; } | sha256sum | cut -c1-16
}

cached() { # key dir command... (the command writes dir)
    local key=$1 d=$2 rc
    shift 2
    if [ -n "${BENCH_CACHE:-}" ] && [ -f "$BENCH_CACHE/$key/rc" ]; then
        rm -rf "$d"
        mkdir -p "$(dirname "$d")"
        cp -r "$BENCH_CACHE/$key" "$d"
        return "$(cat "$d/rc")"
    fi
    "$@"
    rc=$?
    if [ -n "${BENCH_CACHE:-}" ]; then
        echo "$rc" >"$d/rc"
        mkdir -p "$BENCH_CACHE"
        rm -rf "$BENCH_CACHE/$key" "$BENCH_CACHE/$key.$$"
        cp -r "$d" "$BENCH_CACHE/$key.$$" && mv "$BENCH_CACHE/$key.$$" "$BENCH_CACHE/$key"
    fi
    return "$rc"
}

# NVCC_FLAGS (an array): more nvcc options for route_lto, say -x cu for
# CUDA sources named .cc.
route_lto() { # prog dir arch debug src... (directories of .cu files, or source files)
    local prog=$1 d=$2 arch=$3 dbg=$4 f s objs=() t0 srcs=()
    shift 4
    mkdir -p "$d"
    if [ "$dbg" = 1 ]; then echo "n/a: -dlto cannot be combined with -G" >"$d/mode"; return 1; fi
    for s in "$@"; do
        if [ -d "$s" ]; then
            for f in "$s"/*.cu; do [ -f "$f" ] && srcs+=("$f"); done
        elif [ -f "$s" ]; then srcs+=("$s"); fi
    done
    if [ ${#srcs[@]} = 0 ]; then echo "n/a: no CUDA sources in ${1#"$ROOT"/}" >"$d/mode"; return 1; fi
    t0=$(now_ns)
    for f in "${srcs[@]}"; do
        s=$(basename "$f") && s=${s%.*}
        if ! (cd "$(dirname "$f")" && "$NVCC" -arch="$arch" -rdc=true -dlto -c ${NVCC_FLAGS[@]+"${NVCC_FLAGS[@]}"} \
            "$(basename "$f")" -o "$d/$s.o") >"$d/nvcc.log" 2>&1; then
            echo "n/a: nvcc -dlto fails on $(basename "$f"): $(grep -m1 -E 'error|fatal' "$d/nvcc.log" | sed 's/^.*\/\([^/]*:\)/\1/' | cut -c1-110)" >"$d/mode"
            return 1
        fi
        objs+=("$d/$s.o")
    done
    if ! "$NVLINK" -arch="$arch" -dlto -nvvmpath="$NVVM" "${DEVRT[0]}" "${objs[@]}" -lcudadevrt \
        -o "$d/final.cubin" -Xptxas -v >"$d/ptxas.v" 2>&1; then
        echo "n/a: nvlink -dlto failed: $(grep -m1 -E 'error|fatal' "$d/ptxas.v")" >"$d/mode"
        return 1
    fi
    echo "$(ms_since "$t0")" >"$d/ms"
    echo "nvcc -dlto -c ×${#objs[@]} + nvlink -dlto" >"$d/mode"
}

# route_lto, and the PTX NVIDIA's link-time optimizer makes of the objects
# (DIR/dlto.ptx, nvlink -dlto -emit-ptx; none when it fails): the third
# column of the run-time figure.
route_lto_ptx() { # prog dir arch src...
    route_lto "$1" "$2" "$3" 0 "${@:4}" || return 1
    "$NVLINK" -arch="$3" -dlto -nvvmpath="$NVVM" -emit-ptx "$2"/*.o "${DEVRT[@]}" \
        -o "$2/dlto.ptx" >"$2/emit.log" 2>&1 || rm -f "$2/dlto.ptx"
}

# The inputs of one corpus program: a directory corpus/ptx/<prog>/ (linked
# together) or one file corpus/ptx/<prog>.ptx.  Sets P_FILES (array), P_ARCH,
# P_DBG (1 for -G PTX) and P_SRC (the CUDA source(s) for route c: a
# directory, or a file named in tools/gen-corpus.sh's table).
prog_inputs() { # prog
    local p=$1 path=$ROOT/corpus/ptx/$1 f s
    P_FILES=()
    if [ -d "$path" ]; then
        while IFS= read -r f; do P_FILES+=("$f"); done < <(find "$path" -maxdepth 1 -name '*.ptx' | LC_ALL=C sort)
        P_SRC=$ROOT/corpus/src/${p%%.*}
    else
        P_FILES=("$path")
        s=$(awk -v o="ptx/$p" '$5 == o { print $4; exit }' "$ROOT/tools/gen-corpus.sh" 2>/dev/null)
        P_SRC=$ROOT/corpus/src/${s:-${p%%.*}.cu}
    fi
    P_ARCH=$(target_of "${P_FILES[0]}")
    P_DBG=0
    grep -qE '^[[:space:]]*\.target[^/]*debug' "${P_FILES[@]}" && P_DBG=1
}

# Per-function table rows, one column per route: DIR/<r>/stats.tsv for each
# route letter r (an empty stats.tsv: the route failed, cells "n/a").
func_table() { # dir routes...
    local W=$1 r files=()
    shift
    for r in "$@"; do files+=("$W/$r/stats.tsv"); done
    awk -F'\t' -v routes="$*" '
    function cellof(r, n,   v) {
        if (!ok[r]) return "n/a"
        if (!((r, n) in st)) return "inlined"
        v = st[r, n]
        if (v == "inl") return "inlined"
        if (v == "dropped") return "dropped (" stk[r, n] " · " sp[r, n] ")"
        return rg[r, n] " · " stk[r, n] " · " sp[r, n] " · " sz[r, n] (v == "clone" ? " *in kernels*" : "")
    }
    BEGIN { nr = split(routes, rt, " ") }
    FNR == 1 { r = substr(FILENAME, length(FILENAME) - 10, 1) }
    { ok[r] = 1
      # nvcc hashes in internal names differ between the corpus PTX and the -dlto compile
      h = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
      gsub("_INTERNAL_" h "_", "_INTERNAL_<h>_", $1); gsub("_GLOBAL__N__" h "_", "_GLOBAL__N__<h>_", $1)
      if (!($1 in seen)) { seen[$1] = 1; names[++nn] = $1 }
      if ($2 == 1) ent[$1] = 1
      st[r, $1] = $8; rg[r, $1] = $3; stk[r, $1] = $4; sp[r, $1] = $5 "/" $6; sz[r, $1] = $7 }
    END {
        for (pass = 1; pass <= 2; pass++)
            for (i = 1; i <= nn; i++) {
                n = names[i]
                if ((pass == 1) != (n in ent)) continue
                printf "| %s`%s` |", (n in ent) ? "**entry** " : "", n
                for (k = 1; k <= nr; k++) printf " %s |", cellof(rt[k], n)
                printf "\n"
            }
    }' "${files[@]}"
}

# Totals of one route from DIR/stats.tsv and DIR/summary:
# "textbytes maxregs stack spillst spillld" ("–" for none).
route_totals() { # dir
    awk -F'\t' -v sumf="$1/summary" '
    function isnum(v) { return v ~ /^[0-9]+$/ }
    { if (isnum($3) && (mr == "" || $3 + 0 > mr)) mr = $3 + 0
      if ($8 != "sec" && $8 != "clone") next
      if (isnum($4)) stk += $4
      if (isnum($5)) sst += $5
      if (isnum($6)) sld += $6 }
    END { tb = "–"; if ((getline l < sumf) > 0) { split(l, a, " "); tb = a[5] }
          printf "%s %s %d %d %d\n", tb, (mr == "" ? "–" : mr), stk, sst, sld }' "$1/stats.tsv"
}

# Route p: ptxlink -v --ptxas on the PTX files, in the compile mode it picks
# (PLK_FLAGS: more options); a failure is a finding (die_ptxlink).
route_ptxas() { # prog dir arch files...
    local prog=$1 d=$2 arch=$3 t0
    shift 3
    mkdir -p "$d"
    t0=$(now_ns)
    "$PTXLINK" -v --ptxas -Xptxas -v -arch="$arch" ${PLK_FLAGS[@]+"${PLK_FLAGS[@]}"} -o "$d/final.cubin" "$@" >"$d/ptxlink.log" 2>&1 ||
        die_ptxlink "ptxlink --ptxas on $prog" "$d/ptxlink.log" \
            "$PTXLINK" -v --ptxas -Xptxas -v -arch="$arch" ${PLK_FLAGS[@]+"${PLK_FLAGS[@]}"} -o "$d/final.cubin" "$@"
    sed -n 's/^ptxlink: ptxas: //p' "$d/ptxlink.log" >"$d/ptxas.v"
    echo "$(ms_since "$t0")" >"$d/ms"
    echo "ptxlink --ptxas${PLK_FLAGS[*]:+ ${PLK_FLAGS[*]}}: $(sed -n 's/^ptxlink: compile mode: \([a-z -]*[a-z]\).*/\1/p' "$d/ptxlink.log")" >"$d/mode"
}

# "text regs stack spill" of a route, spill = stores + loads; "" when it failed.
totals() { # dir
    [ -f "$1/summary" ] || return 0
    local t mr sk ss sl
    read -r t mr sk ss sl < <(route_totals "$1")
    echo "$t $mr $sk $((ss + sl))"
}

# The better peer's "text stack spill", each the lower of the two routes'
# (a: -rdc, c: -dlto); "" when neither ran.
peer_best() { # prog-dir
    local r t best=()
    for r in a c; do
        t=$(totals "$1/$r")
        [ -n "$t" ] || continue
        set -- "$1" $t
        if [ ${#best[@]} = 0 ]; then best=("$2" "$4" "$5"); continue; fi
        [ "$2" -lt "${best[0]}" ] && best[0]=$2
        [ "$4" -lt "${best[1]}" ] && best[1]=$4
        [ "$5" -lt "${best[2]}" ] && best[2]=$5
    done
    echo "${best[@]}"
}

cell() { # "text regs stack spill"
    [ -n "$1" ] || { echo "n/a"; return; }
    set -- $1
    echo "$1 · $2 · $3 · $4"
}

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
