#!/usr/bin/env bash
# ptxlink as the device linker of a real CMake project and a Makefile,
# from an installed prefix (docs/usage.md, "In a CMake project or a
# Makefile").  No GPU here: the programs are built and linked, not run.
# - dlink-project (CUDA_SEPARABLE_COMPILATION, a STATIC library of device
#   code called across files, CUDA_ARCHITECTURES 80, an executable and a
#   shared library) builds with ptxlink_device_link(): the installed
#   ptxlink made both device-link objects (CMake's own command lines,
#   -shared and -Xcompiler=-fPIC included);
# - the same project built with nvcc -dlink: ptxlink's embedded sm_80
#   cubin (ptxlink-objects -x) has no more .text bytes than nvcc's, and
#   every __cudaRegisterLinkedBinary_* nvcc's object defines, ours too;
# - with ptxlink_device_link(TARGETS app): app's device link is ptxlink's
#   (its .text as the directory form's), the shared library's nvcc's;
#   with the Makefile and the Ninja generators;
# - dlink-makefile (nvcc -dc, ptxlink -dlink, g++) builds with make.
#   dlink.sh BUILD-DIR SOURCE-DIR PTXLINK-OBJECTS
# Skipped without nvcc.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
[ $# -eq 3 ] || { echo "usage: $0 BUILD-DIR SOURCE-DIR PTXLINK-OBJECTS" >&2; exit 2; }
build=$1
list=$(exe_arg "$3")
need_cuda nvcc nvlink fatbinary nm readelf make g++
scratch package-dlink
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL cmake --install"; exit 1; }

# project DIR PTXLINK [GENERATOR]: configure and build dlink-project in $tmp/DIR
project() {
	cmake -S "$here/dlink-project" -B "$tmp/$1" -G "${3:-Unix Makefiles}" -DCMAKE_PREFIX_PATH="$prefix" \
		-DPTXLINK=$2 -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" >"$tmp/$1.log" 2>&1 &&
		VERBOSE=1 cmake --build "$tmp/$1" -j2 >>"$tmp/$1.log" 2>&1 || { cat "$tmp/$1.log"; return 1; }
}
# cubin DIR TARGET: the target's device-link object's images in $tmp/x-DIR-TARGET
cubin() {
	mkdir -p "$tmp/x-$1-$2" &&
		"$list" -x "$tmp/x-$1-$2" "$tmp/$1/CMakeFiles/$2.dir/cmake_device_link.o" >/dev/null
}
# text DIR TARGET: the .text bytes of its sm_80 cubin
text() { cubin_text "$tmp/x-$1-$2/0.sm_80.cubin"; }
project pl DIRECTORY || fail "dlink-project with ptxlink_device_link()"
project nv OFF || fail "dlink-project with nvcc -dlink"
for t in app appshared; do
	grep -q "$prefix/bin/ptxlink\" .* -dlink .*-o CMakeFiles/$t.dir/cmake_device_link.o" \
		"$tmp/pl/CMakeFiles/$t.dir/dlink.txt" ||
		fail "$t: the installed ptxlink did not make the device-link object"
done
grep -q -- "-shared -dlink.*appshared.dir" "$tmp/pl.log" || fail "no -shared on the shared library's device link"
[ -x "$tmp/pl/app" ] && [ -s "$tmp/pl/libappshared.so" ] || fail "no app or libappshared.so"

# the device-link objects compared with nvcc -dlink's
for t in app appshared; do
	pl=$tmp/pl/CMakeFiles/$t.dir/cmake_device_link.o nv=$tmp/nv/CMakeFiles/$t.dir/cmake_device_link.o
	reg=$(dlink_registered "$nv")
	[ -n "$reg" ] && [ -z "$(comm -23 <(echo "$reg") <(dlink_registered "$pl"))" ] ||
		fail "$t: registration '$(dlink_registered "$pl")', nvcc's '$reg'"
	cubin pl $t && cubin nv $t || fail "$t: ptxlink-objects -x"
	pltext=$(text pl $t) nvtext=$(text nv $t)
	echo "$t: sm_80 .text bytes: nvcc -dlink $nvtext, ptxlink -dlink $pltext"
	[ "$pltext" -gt 0 ] && [ "$pltext" -le "$nvtext" ] || fail "$t: .text $pltext, nvcc's $nvtext"
done

# the per-target form: app's device link by ptxlink, appshared's by nvcc
project one TARGET || fail "dlink-project with ptxlink_device_link(TARGETS app)"
cubin one app && cubin one appshared || fail "ptxlink-objects -x (TARGETS)"
[ "$(text one app)" = "$(text pl app)" ] && [ "$(text one appshared)" = "$(text nv appshared)" ] ||
	fail "TARGETS app: .text app $(text one app), appshared $(text one appshared)"
grep -q 'ptxlink-dlink-launcher" .*/bin/ptxlink"' "$tmp/one/CMakeFiles/app.dir/dlink.txt" ||
	fail "TARGETS app: app's device link is not launched by ptxlink-dlink-launcher"
grep -q ptxlink "$tmp/one/CMakeFiles/appshared.dir/dlink.txt" && fail "TARGETS app: appshared's rule runs ptxlink"
# and with Ninja, whose link lines take the launcher too
if command -v ninja >/dev/null; then
	project ninja TARGET Ninja || fail "dlink-project with ptxlink_device_link(TARGETS app), Ninja"
	cubin ninja app || fail "ptxlink-objects -x (Ninja)"
	[ "$(text ninja app)" = "$(text pl app)" ] || fail "TARGETS app, Ninja: .text $(text ninja app)"
else
	echo "SKIPPED (in part): ninja not found, the Ninja generator not tried"
fi

# the Makefile example
mkdir "$tmp/make"
make -s -C "$here/dlink-makefile" PTXLINK="$prefix/bin/ptxlink" OUT="$tmp/make" >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; fail "make dlink-makefile"; }
[ -x "$tmp/make/app" ] && [ -n "$(dlink_registered "$tmp/make/dlink.o")" ] || fail "the Makefile made no program"

[ $fails -eq 0 ] && echo "package-dlink: all checks passed"
[ $fails -eq 0 ]
