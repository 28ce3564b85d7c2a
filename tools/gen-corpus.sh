#!/usr/bin/env bash
# Regenerate the PTX corpus (corpus/ptx, corpus/ptx-rejected) from corpus/src.
#
# Usage: tools/gen-corpus.sh [--no-check] [-j N]
#
#   --no-check  do not run ptxas over the results afterwards
#   -j N        number of parallel compiler jobs (default: nproc)
#
# Producers: nvcc (CUDA 13, $CUDA_HOME, default /usr/local/cuda), clang (CUDA
# mode, -nocudainc with corpus/src/clang_cuda_min.h) and llc (LLVM NVPTX).  A
# producer that is not installed is skipped with a message; its previously
# generated files are left in place.
#
# Determinism: the sources are copied to a fixed staging directory
# (/tmp/ptxlink-corpus/src) and compiled from there with relative paths, so
# the absolute source paths that -G / -lineinfo / clang -g embed are the same
# whatever the checkout location, and nvcc gets -frandom-seed=<source path>
# (otherwise cudafe can put a random/pid-based part into _INTERNAL_ names).
# Two runs give byte-identical files.  The
# PTX is written exactly as the producer emitted it (nothing is stripped).
#
# After generation every file in corpus/ptx is fed to
#   ptxas -arch=<its .target> -c f.ptx -o /dev/null
# and must be accepted; every file in corpus/ptx-rejected must be rejected.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$ROOT/corpus
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
STAGE_PARENT=/tmp/ptxlink-corpus
STAGE=$STAGE_PARENT/src

CHECK=1
JOBS=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
    case "$1" in
    --no-check) CHECK=0 ;;
    -j) JOBS=$2; shift ;;
    -j*) JOBS=${1#-j} ;;
    -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "gen-corpus: unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

# ---------------------------------------------------------------------------
# The corpus table.
#
#   producer  arch    flags (comma-separated, '-' = none)   source (corpus/src/...)           output (corpus/...)
#
# producer: nvcc  = nvcc --ptx -arch=<arch> -frandom-seed=<source> <flags>
#           clang = clang -x cuda --cuda-device-only -nocudainc -O2 -S --cuda-gpu-arch=<arch> <flags>
#           llc   = llc -march=nvptx64 -mcpu=<arch> <flags>
#           libdevice = llc as above on $CUDA_HOME/nvvm/libdevice/libdevice.10.bc
#                   (libdevice as PTX, linked with a -nocudalib clang program)
#           copy  = verbatim copy (hand-written PTX); arch is informational
# Output naming: <source-stem>.<arch>[.<variant>].ptx; multi-file (-rdc=true)
# programs get one directory per program so that every .ptx in it links
# together.  Outputs under ptx-rejected/ are expected to FAIL ptxas.
# ---------------------------------------------------------------------------
read -r -d '' TABLE <<'EOF' || true
# --- nvcc, single translation unit ----------------------------------------------------------------------------------
nvcc   sm_75   -                          vecadd.cu                     ptx/vecadd.sm_75.ptx
nvcc   sm_80   -                          vecadd.cu                     ptx/vecadd.sm_80.ptx
nvcc   sm_86   -                          vecadd.cu                     ptx/vecadd.sm_86.ptx
nvcc   sm_90   -                          vecadd.cu                     ptx/vecadd.sm_90.ptx
nvcc   sm_90a  -                          vecadd.cu                     ptx/vecadd.sm_90a.ptx
nvcc   sm_80   -G                         vecadd.cu                     ptx/vecadd.sm_80.G.ptx
nvcc   sm_80   -lineinfo                  vecadd.cu                     ptx/vecadd.sm_80.lineinfo.ptx
nvcc   sm_75   -                          printf_demo.cu                ptx/printf_demo.sm_75.ptx
nvcc   sm_80   -                          printf_demo.cu                ptx/printf_demo.sm_80.ptx
nvcc   sm_80   -G                         printf_demo.cu                ptx/printf_demo.sm_80.G.ptx
nvcc   sm_80   -                          printf_runtime.cu             ptx/printf_runtime.sm_80.ptx
nvcc   sm_80   -                          local_arrays.cu               ptx/local_arrays.sm_80.ptx
nvcc   sm_86   -lineinfo                  local_arrays.cu               ptx/local_arrays.sm_86.lineinfo.ptx
nvcc   sm_80   -O3                        depot_lifetimes.cu            ptx/depot_lifetimes.sm_80.ptx
nvcc   sm_80   -G                         depot_lifetimes.cu            ptx/depot_lifetimes.sm_80.G.ptx
nvcc   sm_80   -                          recursion.cu                  ptx/recursion.sm_80.ptx
nvcc   sm_80   -G                         recursion.cu                  ptx/recursion.sm_80.G.ptx
nvcc   sm_80   -                          globals_init.cu               ptx/globals_init.sm_80.ptx
nvcc   sm_90   -                          globals_init.cu               ptx/globals_init.sm_90.ptx
nvcc   sm_75   -                          textures.cu                   ptx/textures.sm_75.ptx
nvcc   sm_80   -                          textures.cu                   ptx/textures.sm_80.ptx
nvcc   sm_75   -                          atomics.cu                    ptx/atomics.sm_75.ptx
nvcc   sm_80   -                          atomics.cu                    ptx/atomics.sm_80.ptx
nvcc   sm_90   -                          atomics.cu                    ptx/atomics.sm_90.ptx
nvcc   sm_80   -                          warp_intrinsics.cu            ptx/warp_intrinsics.sm_80.ptx
nvcc   sm_86   -                          warp_intrinsics.cu            ptx/warp_intrinsics.sm_86.ptx
nvcc   sm_90   -                          warp_intrinsics.cu            ptx/warp_intrinsics.sm_90.ptx
nvcc   sm_80   -rdc=true                  coop_groups.cu                ptx/coop_groups.sm_80.rdc.ptx
nvcc   sm_90   -rdc=true                  coop_groups.cu                ptx/coop_groups.sm_90.rdc.ptx
nvcc   sm_80   -                          tensor_wmma.cu                ptx/tensor_wmma.sm_80.ptx
nvcc   sm_86   -                          tensor_wmma.cu                ptx/tensor_wmma.sm_86.ptx
nvcc   sm_90   -                          tensor_wmma.cu                ptx/tensor_wmma.sm_90.ptx
nvcc   sm_80   -                          mma_asm.cu                    ptx/mma_asm.sm_80.ptx
nvcc   sm_86   -lineinfo                  mma_asm.cu                    ptx/mma_asm.sm_86.lineinfo.ptx
nvcc   sm_90a  -                          wgmma_sm90a.cu                ptx/wgmma_sm90a.sm_90a.ptx
nvcc   sm_80   -rdc=true                  dynpar.cu                     ptx/dynpar.sm_80.rdc.ptx
nvcc   sm_75   -                          launch_bounds.cu              ptx/launch_bounds.sm_75.ptx
nvcc   sm_80   -                          launch_bounds.cu              ptx/launch_bounds.sm_80.ptx
nvcc   sm_90   -                          cluster_sm90.cu               ptx/cluster_sm90.sm_90.ptx
nvcc   sm_90a  -lineinfo                  cluster_sm90.cu               ptx/cluster_sm90.sm_90a.lineinfo.ptx
nvcc   sm_80   -                          inline_asm.cu                 ptx/inline_asm.sm_80.ptx
nvcc   sm_90   -                          inline_asm.cu                 ptx/inline_asm.sm_90.ptx
nvcc   sm_75   -                          stencil.cu                    ptx/stencil.sm_75.ptx
nvcc   sm_80   -lineinfo                  stencil.cu                    ptx/stencil.sm_80.lineinfo.ptx
nvcc   sm_80   -                          nbody.cu                      ptx/nbody.sm_80.ptx
nvcc   sm_86   -                          nbody.cu                      ptx/nbody.sm_86.ptx
nvcc   sm_80   -                          reduction.cu                  ptx/reduction.sm_80.ptx
nvcc   sm_90   -                          reduction.cu                  ptx/reduction.sm_90.ptx
nvcc   sm_80   -                          fp16_math.cu                  ptx/fp16_math.sm_80.ptx
nvcc   sm_90   -                          fp16_math.cu                  ptx/fp16_math.sm_90.ptx
nvcc   sm_80   -                          virtual_shapes.cu             ptx/virtual_shapes.sm_80.ptx
nvcc   sm_80   -G                         virtual_shapes.cu             ptx/virtual_shapes.sm_80.G.ptx
nvcc   sm_80   -                          async_pipeline.cu             ptx/async_pipeline.sm_80.ptx
nvcc   sm_90   -                          async_pipeline.cu             ptx/async_pipeline.sm_90.ptx
nvcc   sm_80   -                          math_funcs.cu                 ptx/math_funcs.sm_80.ptx
nvcc   sm_80   -use_fast_math,-lineinfo   math_funcs.cu                 ptx/math_funcs.sm_80.fastmath.lineinfo.ptx
nvcc   sm_86   -                          thrust_algos.cu               ptx/thrust_algos.sm_86.ptx
nvcc   sm_80   -                          cub_sort_scan.cu              ptx/cub_sort_scan.sm_80.ptx
# --- nvcc, multi-file programs (-rdc=true), one directory per program -------------------------------------------------
nvcc   sm_80   -rdc=true                  raytrace/raytrace_main.cu     ptx/raytrace/raytrace_main.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  raytrace/hitable.cu           ptx/raytrace/hitable.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  raytrace/material.cu          ptx/raytrace/material.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  fnptr/interp.cu               ptx/fnptr/interp.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  fnptr/ops.cu                  ptx/fnptr/ops.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  fnptr/reduce_ops.cu           ptx/fnptr/reduce_ops.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  globals/defs.cu               ptx/globals/defs.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  globals/use.cu                ptx/globals/use.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true,-G               globals/defs.cu               ptx/globals.G/defs.sm_80.rdc.G.ptx
nvcc   sm_80   -rdc=true,-G               globals/use.cu                ptx/globals.G/use.sm_80.rdc.G.ptx
nvcc   sm_80   -rdc=true,-G               debug_multi/main.cu           ptx/debug_multi/main.sm_80.rdc.G.ptx
nvcc   sm_80   -rdc=true,-G               debug_multi/scale.cu          ptx/debug_multi/scale.sm_80.rdc.G.ptx
nvcc   sm_80   -rdc=true,-G               debug_multi/accumulate.cu     ptx/debug_multi/accumulate.sm_80.rdc.G.ptx
nvcc   sm_80   -rdc=true                  dynpar_multi/parent.cu        ptx/dynpar_multi/parent.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  dynpar_multi/child.cu         ptx/dynpar_multi/child.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  mono_iface/sim.cu             ptx/mono_iface/sim.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  mono_iface/driver.cu          ptx/mono_iface/driver.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  mono_iface/leapfrog.cu        ptx/mono_iface/leapfrog.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vcall_xfile/shade.cu          ptx/vcall_xfile/shade.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vcall_xfile/factory.cu        ptx/vcall_xfile/factory.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vcall_xfile/lights.cu         ptx/vcall_xfile/lights.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  globalopt/main.cu             ptx/globalopt/main.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  globalopt/tables.cu           ptx/globalopt/tables.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  nbody_xfile/physics.cu        ptx/nbody_xfile/physics.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  nbody_xfile/step.cu           ptx/nbody_xfile/step.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  stencil_xfile/grid.cu         ptx/stencil_xfile/grid.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  stencil_xfile/coeffs.cu       ptx/stencil_xfile/coeffs.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  stencil_xfile/heat.cu         ptx/stencil_xfile/heat.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vecmath/vecmath.cu            ptx/vecmath/vecmath.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vecmath/transform.cu          ptx/vecmath/transform.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  vecmath/lighting.cu           ptx/vecmath/lighting.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  bits/bits.cu                  ptx/bits/bits.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  bits/morton.cu                ptx/bits/morton.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  bits/bloom.cu                 ptx/bits/bloom.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  solver/params.cu              ptx/solver/params.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  solver/jacobi.cu              ptx/solver/jacobi.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  filters/filters.cu            ptx/filters/filters.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  filters/image.cu              ptx/filters/image.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  exprtree/nodes.cu             ptx/exprtree/nodes.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  exprtree/build.cu             ptx/exprtree/build.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  exprtree/eval.cu              ptx/exprtree/eval.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  bytecode/ops.cu               ptx/bytecode/ops.sm_80.rdc.ptx
nvcc   sm_80   -rdc=true                  bytecode/vm.cu                ptx/bytecode/vm.sm_80.rdc.ptx
nvcc   sm_90   -rdc=true,-lineinfo        fnptr/interp.cu               ptx/fnptr.sm_90/interp.sm_90.rdc.lineinfo.ptx
nvcc   sm_90   -rdc=true,-lineinfo        fnptr/ops.cu                  ptx/fnptr.sm_90/ops.sm_90.rdc.lineinfo.ptx
nvcc   sm_90   -rdc=true,-lineinfo        fnptr/reduce_ops.cu           ptx/fnptr.sm_90/reduce_ops.sm_90.rdc.lineinfo.ptx
# --- clang in CUDA mode (-nocudainc + clang_cuda_min.h) -----------------------------------------------------------------
clang  sm_75   -                          clang_saxpy.cu                ptx/clang_saxpy.sm_75.ptx
clang  sm_80   -                          clang_saxpy.cu                ptx/clang_saxpy.sm_80.ptx
clang  sm_86   -                          clang_saxpy.cu                ptx/clang_saxpy.sm_86.ptx
clang  sm_80   -g                         clang_saxpy.cu                ptx/clang_saxpy.sm_80.g.ptx
clang  sm_80   -                          clang_atomics_warp.cu         ptx/clang_atomics_warp.sm_80.ptx
clang  sm_80   -                          clang_depot_lifetimes.cu      ptx/clang_depot_lifetimes.sm_80.ptx
clang  sm_80   -nocudalib,-Xclang,-target-feature,-Xclang,+ptx72  clang_math_nocudalib.cu  ptx/clang_math_nocudalib.sm_80.ptx
libdevice sm_80 -mattr=+ptx72             libdevice.10.bc               ptx-rejected/libdevice.sm_80.ptx
clang  sm_80   -fno-builtin-printf        clang_printf_nobuiltin.cu     ptx-rejected/clang_printf_nobuiltin.sm_80.ptx
clang  sm_80   -fno-builtin-printf        printf_runtime.cu             ptx-rejected/printf_runtime.sm_80.nobuiltin.ptx
clang  sm_80   -fgpu-rdc                  clang_multi/main.cu           ptx/clang_multi/main.sm_80.rdc.ptx
clang  sm_80   -fgpu-rdc                  clang_multi/lib.cu            ptx/clang_multi/lib.sm_80.rdc.ptx
# --- llc on hand-written LLVM IR ----------------------------------------------------------------------------------------
llc    sm_75   -                          llvm/llc_loops.ll             ptx/llc_loops.sm_75.ptx
llc    sm_80   -                          llvm/llc_loops.ll             ptx/llc_loops.sm_80.ptx
llc    sm_80   -                          llvm/llc_alloca.ll            ptx/llc_alloca.sm_80.ptx
llc    sm_80   -                          llvm/llc_fnptr.ll             ptx/llc_fnptr.sm_80.ptx
llc    sm_80   -                          llvm/llc_vectors.ll           ptx/llc_vectors.sm_80.ptx
llc    sm_86   -O0                        llvm/llc_vectors.ll           ptx/llc_vectors.sm_86.O0.ptx
llc    sm_80   -                          llvm/llc_printf.ll            ptx-rejected/llc_printf.sm_80.ptx
llc    sm_80   -                          llvm/printf_types.ll          ptx-rejected/printf_types.sm_80.ptx
llc    sm_75   -O0                        llvm/printf_types.ll          ptx-rejected/printf_types.sm_75.O0.ptx
llc    sm_80   -                          llvm/printf_many.ll           ptx-rejected/printf_many.sm_80.ptx
llc    sm_80   -                          llvm/printf_device.ll         ptx-rejected/printf_device.sm_80.ptx
llc    sm_86   -O0                        llvm/printf_device.ll         ptx-rejected/printf_device.sm_86.O0.ptx
# --- hand-written PTX, copied verbatim -----------------------------------------------------------------------------------
copy   sm_80   -                          handwritten/hw_control.ptx    ptx/handwritten/hw_control.ptx
copy   sm_80   -                          handwritten/hw_globals.ptx    ptx/handwritten/hw_globals.ptx
copy   sm_80   -                          handwritten/hw_texrefs.ptx    ptx/handwritten/hw_texrefs.ptx
copy   sm_80   -                          handwritten/hw_samplers.ptx   ptx/handwritten/hw_samplers.ptx
copy   sm_80   -                          handwritten/hw_immediates.ptx ptx/handwritten/hw_immediates.ptx
copy   sm_90   -                          handwritten/hw_kernel_attrs.ptx ptx/handwritten/hw_kernel_attrs.ptx
copy   sm_75   -                          handwritten/hw_params.ptx     ptx/handwritten/hw_params.ptx
EOF

# ---------------------------------------------------------------------------
# Tool discovery
# ---------------------------------------------------------------------------
NVCC=""
if [ -x "$CUDA_HOME/bin/nvcc" ]; then NVCC=$CUDA_HOME/bin/nvcc
elif command -v nvcc >/dev/null 2>&1; then NVCC=$(command -v nvcc); fi
PTXAS=""
if [ -x "$CUDA_HOME/bin/ptxas" ]; then PTXAS=$CUDA_HOME/bin/ptxas
elif command -v ptxas >/dev/null 2>&1; then PTXAS=$(command -v ptxas); fi
CLANG=$(command -v clang 2>/dev/null || command -v clang-14 2>/dev/null || true)
LLC=$(command -v llc 2>/dev/null || command -v llc-14 2>/dev/null || true)
[ -n "$NVCC" ] && export PATH="$(dirname "$NVCC"):$PATH"

have() {
    case "$1" in
    nvcc) [ -n "$NVCC" ] ;;
    clang) [ -n "$CLANG" ] && [ -d "$CUDA_HOME/nvvm/libdevice" ] ;;
    llc) [ -n "$LLC" ] ;;
    libdevice) [ -n "$LLC" ] && [ -f "$CUDA_HOME/nvvm/libdevice/libdevice.10.bc" ] ;;
    copy) true ;;
    esac
}

ALL_TOOLS=1
for t in nvcc clang llc libdevice; do
    if ! have "$t"; then
        n=$(printf '%s\n' "$TABLE" | grep -c "^$t " || true)
        why="$t not found"
        [ "$t" = clang ] && [ -n "$CLANG" ] && why="clang needs libdevice: $CUDA_HOME/nvvm/libdevice not found"
        [ "$t" = nvcc ] && why="nvcc not found (looked in \$CUDA_HOME/bin = $CUDA_HOME/bin and PATH)"
        echo "gen-corpus: SKIP: $why; not regenerating its $n file(s); existing ones are left in place" >&2
        ALL_TOOLS=0
    fi
done

# ---------------------------------------------------------------------------
# Staging: fixed path => identical embedded paths from any checkout.
# ---------------------------------------------------------------------------
mkdir -p "$STAGE_PARENT"
exec 9>"$STAGE_PARENT/.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
rm -rf "$STAGE"
cp -R "$CORPUS/src" "$STAGE"

if [ "$ALL_TOOLS" = 1 ]; then
    # full regeneration: drop old outputs so removed table rows do not linger
    find "$CORPUS/ptx" "$CORPUS/ptx-rejected" -name '*.ptx' -type f -delete 2>/dev/null || true
    find "$CORPUS/ptx" -mindepth 1 -type d -empty -delete 2>/dev/null || true
fi
mkdir -p "$CORPUS/ptx" "$CORPUS/ptx-rejected"

LOGDIR=$STAGE_PARENT/logs
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"

build_one() { # producer arch flags source output
    local prod=$1 arch=$2 flags=$3 src=$4 out=$5
    local -a extra=()
    if [ "$flags" != "-" ]; then IFS=',' read -r -a extra <<<"$flags"; fi
    local dst=$CORPUS/$out
    local tmp=$dst.tmp
    local dir base
    dir=$STAGE/$(dirname "$src")
    base=$(basename "$src")
    mkdir -p "$(dirname "$dst")" || return 1
    rm -f "$tmp"
    (
        cd "$dir" || exit 1
        case "$prod" in
        nvcc) "$NVCC" --ptx -arch="$arch" -frandom-seed="$src" "${extra[@]}" "$base" -o "$tmp" ;;
        clang) "$CLANG" -x cuda --cuda-gpu-arch="$arch" --cuda-device-only -nocudainc \
            --cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -O2 -S "${extra[@]}" "$base" -o "$tmp" ;;
        llc) "$LLC" -march=nvptx64 -mcpu="$arch" "${extra[@]}" "$base" -o "$tmp" ;;
        libdevice) "$LLC" -march=nvptx64 -mcpu="$arch" "${extra[@]}" \
            "$CUDA_HOME/nvvm/libdevice/libdevice.10.bc" -o "$tmp" ;;
        copy) cp "$base" "$tmp" ;;
        *) echo "unknown producer $prod"; exit 1 ;;
        esac
    ) || { rm -f "$tmp"; return 1; }
    mv -f "$tmp" "$dst"
}

# ---------------------------------------------------------------------------
# Run the table (in parallel, up to $JOBS jobs)
# ---------------------------------------------------------------------------
declare -a NAMES=()
n=0
while read -r prod arch flags src out; do
    case "$prod" in '' | '#'*) continue ;; esac
    have "$prod" || continue
    n=$((n + 1))
    key=$(echo "$out" | tr '/' '_')
    NAMES+=("$out")
    (
        if build_one "$prod" "$arch" "$flags" "$src" "$out" >"$LOGDIR/$key.log" 2>&1; then
            echo 0 >"$LOGDIR/$key.rc"
        else
            echo 1 >"$LOGDIR/$key.rc"
        fi
    ) &
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
done <<<"$TABLE"
wait

fail=0
for out in "${NAMES[@]}"; do
    key=$(echo "$out" | tr '/' '_')
    if [ "$(cat "$LOGDIR/$key.rc" 2>/dev/null)" != 0 ]; then
        echo "gen-corpus: FAILED: $out" >&2
        sed 's/^/    /' "$LOGDIR/$key.log" >&2
        fail=1
    fi
done
[ "$fail" = 0 ] || { echo "gen-corpus: some files failed to build" >&2; exit 1; }
echo "gen-corpus: generated $n file(s) under $CORPUS"

# ---------------------------------------------------------------------------
# Verification with ptxas
# ---------------------------------------------------------------------------
if [ "$CHECK" = 1 ]; then
    if [ -z "$PTXAS" ]; then
        echo "gen-corpus: SKIP check: ptxas not found" >&2
        exit 0
    fi
    target_of() { sed -n 's/^[[:space:]]*\.target[[:space:]]\{1,\}\([a-z0-9_]*\).*/\1/p' "$1" | head -n1; }
    bad=0
    while IFS= read -r f; do
        t=$(target_of "$f")
        if ! "$PTXAS" -arch="$t" -c "$f" -o /dev/null >"$LOGDIR/ptxas.log" 2>&1; then
            echo "gen-corpus: ptxas REJECTS ${f#"$CORPUS"/} (-arch=$t):" >&2
            sed 's/^/    /' "$LOGDIR/ptxas.log" >&2
            bad=1
        fi
    done < <(find "$CORPUS/ptx" -name '*.ptx' -type f | LC_ALL=C sort)
    while IFS= read -r f; do
        t=$(target_of "$f")
        if "$PTXAS" -arch="$t" -c "$f" -o /dev/null >/dev/null 2>&1; then
            echo "gen-corpus: ${f#"$CORPUS"/} is in ptx-rejected/ but ptxas accepts it" >&2
            bad=1
        fi
    done < <(find "$CORPUS/ptx-rejected" -name '*.ptx' -type f | LC_ALL=C sort)
    [ "$bad" = 0 ] || exit 1
    echo "gen-corpus: ptxas check passed"
fi
