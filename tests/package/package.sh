#!/bin/sh
# Installs the build into a scratch prefix and uses it as a user would:
# the files are there, the CMake example builds a cubin and a fatbinary
# through find_package(ptxlink) and ptxlink_add_link (and links the same
# PTX through ptxlink::ptxlink, the library), so does a project whose only
# language is CUDA, the Makefile example
# builds a cubin with the command pkg-config names, and the library's
# example program compiles against the installed header and library.
#   package.sh BUILD-DIR SOURCE-DIR
set -eu
build=$1 src=$2
. "$src/tests/lib.sh"
cuda=/usr/local/cuda/bin
PATH=$PATH:$cuda
for tool in nvcc ptxas fatbinary readelf pkg-config make cc; do
	if ! command -v $tool >/dev/null; then
		echo "SKIPPED: $tool not found"
		exit 77
	fi
done
nvcc=$(command -v nvcc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name ptxlink.pc)
[ -n "$pc" ] || fail "no ptxlink.pc under $prefix"
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(pkg-config --variable=libdir ptxlink)
for f in bin/ptxlink bin/ptxlink-run share/man/man1/ptxlink.1 share/man/man1/ptxlink-run.1 \
	include/ptxlink.h; do
	[ -s "$prefix/$f" ] || fail "$f not installed"
done
cmakedir=$(dirname "$(find "$prefix" -name ptxlinkConfig.cmake)")
for f in "$libdir/libptxlink.a" "$libdir/libptxlink.so" "$cmakedir/ptxlinkConfigVersion.cmake" \
	"$cmakedir/ptxlinkTargets.cmake" "$cmakedir/ptxlinkLink.cmake" "$cmakedir/ptxlink-dlink-launcher"; do
	[ -s "$f" ] || fail "$f not installed"
done
readelf -d "$libdir/libptxlink.so" | grep -q 'SONAME.*libptxlink\.so\.' || fail "no SONAME"
[ "$(pkg-config --variable=ptxlink ptxlink)" -ef "$prefix/bin/ptxlink" ] \
	|| fail "pkg-config's ptxlink is not the installed command"
if command -v groff >/dev/null; then
	for m in "$prefix"/share/man/man1/*.1; do
		[ -z "$(groff -man -ww -z "$m" 2>&1)" ] || fail "groff warns about $m"
	done
fi

# A cubin, as ptxas writes it: ELF for the CUDA machine.
is_cubin() {
	[ -s "$1" ] || fail "$1 missing or empty"
	readelf -h "$1" | grep -q 'Machine: *NVIDIA CUDA' || fail "$1 is not a CUDA ELF"
}

cmake -S "$src/tests/package/cmake-project" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_CUDA_COMPILER="$nvcc" >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "cmake configure"; }
cmake --build "$tmp/cmake" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "cmake build"; }
grep -q "$prefix/bin/ptxlink" "$tmp/cmake/CMakeFiles/shapes.dir/build.make" \
	|| fail "the CMake example did not run the installed ptxlink"
is_cubin "$tmp/cmake/shapes.cubin"
[ -s "$tmp/cmake/shapes_fat.fatbin" ] || fail "no fatbinary"
cmp -s "$tmp/cmake/shapes.ptx" "$tmp/cmake/shapes_lib.ptx" \
	|| fail "libptxlink (ptxlink::ptxlink) and the command link differently"
# dynamic parallelism: relocatable, nvlink with libcudadevrt
is_cubin "$tmp/cmake/launch.cubin"
grep -q "compile mode: relocatable" "$tmp/build.log" || fail "launch.cubin not compiled relocatable"
# CMAKE_CUDA_ARCHITECTURES 80 90: a cubin for each, PTX for the newest
images=$(fatbin_images "$tmp/cmake/shapes_two.fatbin")
[ "$images" = "elf 80 elf 90 ptx 90 " ] || fail "shapes_two.fatbin holds '$images'"
echo "cmake-project: $(wc -c <"$tmp/cmake/shapes.cubin") bytes of cubin, shapes_two.fatbin: $images"

# CUDA the only language, and a caller's own 'old': the link is still for
# sm_80, the oldest of CMAKE_CUDA_ARCHITECTURES, and the static library links.
cmake -S "$src/tests/package/cuda-only" -B "$tmp/cuda-only" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_CUDA_COMPILER="$nvcc" >"$tmp/cuda-only.log" 2>&1 \
	|| { cat "$tmp/cuda-only.log"; fail "cmake configure (LANGUAGES CUDA)"; }
cmake --build "$tmp/cuda-only" -j2 >"$tmp/cuda-only.log" 2>&1 \
	|| { cat "$tmp/cuda-only.log"; fail "cmake build (LANGUAGES CUDA)"; }
for f in $(find "$tmp/cuda-only/CMakeFiles/lights_ptx.dir" -name '*.ptx'); do
	grep -q '^\.target sm_80$' "$f" \
		|| fail "$f: $(grep '^\.target' "$f"), not sm_80 (the caller's 'old' leaked)"
done
images=$(fatbin_images "$tmp/cuda-only/lights.fatbin")
[ "$images" = "elf 80 elf 90 ptx 90 " ] || fail "lights.fatbin holds '$images'"
echo "cuda-only: lights.fatbin: $images"

mkdir "$tmp/make"
PATH="$prefix/bin:$PATH" make -s -C "$src/tests/package/makefile-project" OUT="$tmp/make" \
	>"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make"; }
is_cubin "$tmp/make/app.cubin"
echo "makefile-project: $(wc -c <"$tmp/make/app.cubin") bytes of cubin"

# The library's example, shared (found by its rpath) and static; both print
# the same PTX, which ptxas compiles as a whole program.
ex=$src/tests/lib/example.c
cc -Wall -Werror $ex $(pkg-config --cflags --libs ptxlink) -Wl,-rpath,"$libdir" -o "$tmp/ex-shared"
cc -Wall -Werror $ex $(pkg-config --cflags ptxlink) "$libdir/libptxlink.a" -o "$tmp/ex-static"
readelf -d "$tmp/ex-shared" | grep -q 'NEEDED.*libptxlink\.so' || fail "example not linked shared"
"$tmp/ex-shared" >"$tmp/shared.ptx" || fail "example (shared) failed"
"$tmp/ex-static" >"$tmp/static.ptx" || fail "example (static) failed"
cmp -s "$tmp/shared.ptx" "$tmp/static.ptx" || fail "shared and static examples differ"
ptxas -arch=sm_80 "$tmp/shared.ptx" -o "$tmp/example.cubin" || fail "ptxas rejects the example's PTX"
echo "example: $(wc -l <"$tmp/shared.ptx") lines of PTX"
