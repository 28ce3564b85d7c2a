#!/usr/bin/env bash
# Installs what ptxlink needs to build and test, when missing (Debian).
# CUDA (ptxas, nvcc) comes with the machine at /usr/local/cuda; the tests
# that need it say SKIPPED when it is absent.
set -euo pipefail
need=()
for pair in flex:flex bison:bison cmake:cmake pkg-config:pkg-config clang:clang; do
	command -v "${pair%%:*}" >/dev/null || need+=("${pair##*:}")
done
[ -f /usr/include/uthash.h ] || need+=(uthash-dev)
pkg-config --exists check 2>/dev/null || need+=(check)
# fatbinary entries' decompression (tools/obj/unpack.c)
pkg-config --exists libzstd 2>/dev/null || need+=(libzstd-dev)
pkg-config --exists liblz4 2>/dev/null || need+=(liblz4-dev)
# the scaling test's last look at a row over its time bound: instructions
# executed, which a machine's caches do not change (tests/scaling/scaling.sh)
command -v valgrind >/dev/null || need+=(valgrind)
# clang's libFuzzer and sanitizer runtimes, for tools/fuzz.sh
ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
	|| need+=(libclang-rt-14-dev)
if [ ${#need[@]} -gt 0 ]; then
	echo "setup: installing ${need[*]}"
	SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
