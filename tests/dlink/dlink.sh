#!/usr/bin/env bash
# ptxlink -dlink in place of nvcc -dlink (tools/cli/dlink.c), on a program
# built as separable compilation builds it: main.cu and lib.cu compiled
# with nvcc -dc at code=[compute_80,sm_80], lib.o in an archive.  No GPU
# here: the program is linked, not run, and checked:
# - the device-link object links into an executable (g++ with
#   -lcudart_static, and nvcc's final link), in place of nvcc -dlink's;
# - it defines every __cudaRegisterLinkedBinary_<id> nvcc -dlink's does;
# - its fatbinary (read by ptxlink-objects) holds an sm_80 cubin whose
#   .text bytes are at most nvcc -dlink's, and, with code=compute_80, the
#   linked PTX: the host's __constant__ tables (cudaMemcpyToSymbol, an
#   external and a static one) still loaded, not folded to their
#   initializers;
# - two architectures (-gencode twice, -Xptxas), and a kernel launching a
#   kernel (-lcudadevrt, libcudadevrt's module registered as nvcc's
#   object registers it) link too; the 64 KB table nothing
#   names gone (nvlink's cubin keeps it);
# - an object with a cubin only (code=sm_80): nvlink links, one warning
#   names the object and the setting that gives PTX, and it still links;
#   one with LTO-IR only: nvlink -dlto, as nvcc -dlink -dlto;
# - a truncated object and a cut archive: an error, exit 1, no output;
# - CMake's device-link line: its nvcc options taken as nvcc takes them,
#   its host libraries (-lrt) skipped.
# Skipped without nvcc.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
[ $# -eq 2 ] || { echo "usage: $0 PTXLINK PTXLINK-OBJECTS" >&2; exit 2; }
ptxlink=$(exe_arg "$1")
list=$(exe_arg "$2")
need_cuda nvcc nvlink fatbinary
scratch dlink
cd "$tmp" || exit 2
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
cudalib=$(dirname "$(command -v nvcc)")/../targets/x86_64-linux/lib

both='-gencode arch=compute_80,code=[compute_80,sm_80]'
nvcc -dc $both "$here/main.cu" -o main.o || fail "nvcc -dc main.cu"
nvcc -dc $both "$here/lib.cu" -o lib.o || fail "nvcc -dc lib.cu"
nvcc -dc -gencode arch=compute_80,code=sm_80 "$here/sass.cu" -o sass.o || fail "nvcc -dc sass.cu"
ar rcs libdev.a lib.o

# links OBJ...: an executable of them, g++ and nvcc alike (the device-link
# object before the archive, as CMake orders them: its registration pulls
# the archive's members in)
links() {
	g++ "$@" -L"$cudalib" -lcudart_static -ldl -lpthread -lrt -o app.gxx ||
		fail "g++ does not link $*"
	nvcc -arch=sm_80 "$@" -o app.nvcc || fail "nvcc does not link $*"
}

nvcc -dlink -arch=sm_80 main.o -L. -ldev -o nv.o || fail "nvcc -dlink"
"$ptxlink" -dlink -arch=sm_80 main.o -L. -ldev -o pl.o 2>err || { cat err; fail "ptxlink -dlink"; }
[ -s err ] && { cat err; fail "ptxlink -dlink said something"; }
[ "$(dlink_registered pl.o)" = "$(dlink_registered nv.o)" ] && [ -n "$(dlink_registered nv.o)" ] ||
	fail "registration: '$(dlink_registered pl.o)' not nvcc's '$(dlink_registered nv.o)'"
links main.o pl.o libdev.a

# the cubins compared
mkdir -p x-nv x-pl
"$list" -x x-nv nv.o >/dev/null && "$list" -x x-pl pl.o >/dev/null || fail "ptxlink-objects -x"
nvtext=$(cubin_text x-nv/0.sm_80.cubin) pltext=$(cubin_text x-pl/0.sm_80.cubin)
echo "sm_80 .text bytes: nvcc -dlink $nvtext, ptxlink -dlink $pltext"
[ "$pltext" -gt 0 ] && [ "$pltext" -le "$nvtext" ] || fail ".text $pltext, nvcc's $nvtext"
nvsize=$(stat -c %s x-nv/0.sm_80.cubin) plsize=$(stat -c %s x-pl/0.sm_80.cubin)
echo "sm_80 cubin bytes: nvcc -dlink $nvsize, ptxlink -dlink $plsize"
[ "$plsize" -lt $((nvsize - 60000)) ] || fail "bigtable stayed: cubin $plsize bytes, nvcc's $nvsize"

# --device-link and -gencode with PTX: the linked PTX embedded
"$ptxlink" --device-link $both main.o libdev.a -o plx.o || fail "ptxlink --device-link -gencode"
"$list" -x x-plx plx.o >/dev/null 2>&1 || { mkdir -p x-plx && "$list" -x x-plx plx.o >/dev/null; }
ptx=x-plx/0.sm_80.ptx
[ -f "$ptx" ] && [ -f x-plx/0.sm_80.cubin ] || fail "no PTX and cubin in plx.o: $(ls x-plx)"
grep -q 'ld\.const.*ctable' "$ptx" || fail "ctable's load folded: the host fills it"
grep -q 'ld\.const.*__nv_static_[0-9]*_.*_cstatic' "$ptx" || fail "the static cstatic's load folded: the host fills it"
grep -q 'bigtable' "$ptx" && fail "bigtable stayed in the linked PTX"
grep -q 'ld\.global.*weights' "$ptx" && fail "weights (no host reference) not folded"
links main.o plx.o libdev.a

# two architectures, PTX for each; -Xptxas passed on
two="$both -gencode arch=compute_90,code=[compute_90,sm_90]"
nvcc -dc $two "$here/main.cu" -o main2.o && nvcc -dc $two "$here/lib.cu" -o lib2.o || fail "nvcc -dc sm_90"
"$ptxlink" -dlink $two -Xptxas -O3 main2.o lib2.o -o pl2.o || fail "ptxlink -dlink, two architectures"
got=$("$list" pl2.o | awk '/^  (ptx|cubin) / { printf "%s %s; ", $1, $2 }')
[ "$got" = "cubin sm_80; ptx sm_80; cubin sm_90; ptx sm_90; " ] || fail "two architectures: $got"
links main2.o pl2.o lib2.o

# the device runtime: a kernel launching a kernel
nvcc -dc $both "$here/launch.cu" -o launch.o || fail "nvcc -dc launch.cu"
"$ptxlink" -dlink -arch=sm_80 launch.o -lcudadevrt -o pld.o || fail "ptxlink -dlink -lcudadevrt"
g++ launch.o pld.o -L"$cudalib" -lcudadevrt -lcudart_static -ldl -lpthread -lrt -o app.devrt ||
	fail "the device runtime's program does not link"
nvcc -dlink -arch=sm_80 launch.o -o nvd.o || fail "nvcc -dlink launch.o"
[ "$(dlink_registered pld.o)" = "$(dlink_registered nvd.o)" ] ||
	fail "registration with the device runtime: '$(dlink_registered pld.o)', nvcc's '$(dlink_registered nvd.o)'"

# an object without PTX: nvlink, one warning
"$ptxlink" -dlink -arch=sm_80 main.o sass.o libdev.a -o pls.o 2>err || { cat err; fail "ptxlink -dlink sass.o"; }
nvcc -dlink -arch=sm_80 main.o sass.o libdev.a -o nvs.o || fail "nvcc -dlink sass.o"
[ "$(grep -c 'warning' err)" = 1 ] && grep -q "sass.o" err && grep -q 'CUDA_ARCHITECTURES 80 rather than 80-real' err ||
	fail "the fallback's warning: $(cat err)"
[ "$(dlink_registered pls.o)" = "$(dlink_registered nvs.o)" ] || fail "fallback registration differs"
links main.o sass.o pls.o libdev.a

# an object with LTO-IR only: nvlink -dlto, as nvcc -dlink -dlto runs it
nvcc -dc -gencode arch=compute_80,code=lto_80 "$here/lib.cu" -o liblto.o || fail "nvcc -dc lto_80"
"$ptxlink" -dlink -arch=sm_80 main.o liblto.o -o pll.o 2>err
plrc=$?
grep -q "warning: no PTX for sm_80 in liblto.o" err || fail "LTO-IR: no warning: $(cat err)"
if nvcc -dlink -dlto -arch=sm_80 main.o liblto.o -o nvl.o >/dev/null 2>&1; then
	[ $plrc = 0 ] && [ "$(dlink_registered pll.o)" = "$(dlink_registered nvl.o)" ] || fail "LTO-IR: $(cat err)"
else
	echo "SKIPPED (in part): nvcc -dlink -dlto fails here too (nvlink -dlto cannot load libnvvm);" \
		"checked that ptxlink ran nvlink -dlto and failed with it"
	[ $plrc = 1 ] && grep -q 'nvlink: .*fatal' err && ! grep -q 'use -dlto' err && [ ! -e pll.o ] || fail "LTO-IR: rc $plrc, $(cat err)"
fi

# bad input: an error naming the file, no output
head -c 3000 main.o > cut.o
"$ptxlink" -dlink -arch=sm_80 cut.o lib.o -o bad.o 2>err && fail "a truncated object accepted"
grep -q '^cut.o: error: .* at byte [0-9]' err || fail "truncated object: $(cat err)"
{ head -c 200 libdev.a; printf 'garbage'; } > cut.a
"$ptxlink" -dlink -arch=sm_80 main.o cut.a -o bad.o 2>err && fail "a cut archive accepted"
grep -q '^cut.a.*: error: .* at byte [0-9]' err || fail "cut archive: $(cat err)"
[ -e bad.o ] && fail "output written after an error"

# CMake's device-link line (make VERBOSE=1): nvcc's options for the host
# compiler taken as nvcc -dlink takes them (-Xcompiler's and, for -shared,
# -fPIC to the compiler of link.stub), -lNAME found in CUDA's library
# directory or nowhere (-lrt: the host's) skipped, as nvlink skips it
echo "libdev.a -lcudadevrt -lcudart_static -lrt -lpthread -ldl -lnosuch" > libs.rsp
"$ptxlink" -forward-unknown-to-host-compiler --generate-code=arch=compute_80,code=[compute_80,sm_80] \
	-Xcompiler=-fPIC,-O1 -Wno-deprecated-gpu-targets -shared -dlink main.o -o cm.o --options-file libs.rsp \
	-v 2>err || { cat err; fail "CMake's device-link line"; }
grep -q 'warning\|error' err && fail "CMake's device-link line: $(grep 'warning\|error' err)"
grep -q 'gcc .*__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__ -fPIC -O1 -fPIC -Wno-psabi' err ||
	fail "-Xcompiler and -shared not passed to the host compiler: $(grep gcc err)"
[ "$(dlink_registered cm.o)" = "$(dlink_registered nv.o)" ] || fail "CMake's line: registration differs"

[ $fails -eq 0 ] && echo "dlink: all checks passed"
[ $fails -eq 0 ]
