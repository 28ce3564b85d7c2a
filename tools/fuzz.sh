#!/usr/bin/env bash
# Fuzz the PTX parser and printer with libFuzzer (tests/fuzz/fuzz_parse.c).
#
#   tools/fuzz.sh [SECONDS]     (default 60)
#
# Builds build-fuzz with clang (-fsanitize=fuzzer,address,undefined), seeds a
# corpus from corpus/ptx/**/*.ptx (files under 100 KB; falls back to
# tests/bad/*.ptx and a few built-in seeds), and runs the fuzzer.  Inputs it
# finds interesting accumulate in build-fuzz/fuzz-corpus across runs; crash,
# leak and timeout reproducers land in build-fuzz/fuzz-artifacts/.
# Reproduce one with: build-fuzz/fuzz-parse build-fuzz/fuzz-artifacts/crash-...
# Exits non-zero on any crash, leak, timeout or out-of-memory.
set -u
secs=${1:-60}
case $secs in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
result() {
	if [ "$1" = 0 ]; then echo "fuzz: 1 passed, 0 failed"; else echo "fuzz: 0 passed, 1 failed"; fi
	exit "$1"
}

if ! command -v clang >/dev/null; then
	echo "fuzz: clang not found" >&2
	result 1
fi
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DPTXLINK_FUZZ=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/build.log" 2>&1 &&
	cmake --build "$build" --target fuzz-parse -j"$(nproc)" >>"$build/build.log" 2>&1 || {
	tail -30 "$build/build.log" >&2
	echo "fuzz: build failed (log: $build/build.log)" >&2
	result 1
}

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus" "$artifacts"
nseeds=0
if [ -d "$root/corpus/ptx" ]; then
	while IFS= read -r -d '' f; do
		id=$(printf '%s' "${f#"$root"/corpus/ptx/}" | tr '/' '_')
		cp -f "$f" "$corpus/seed_$id" && nseeds=$((nseeds + 1))
	done < <(find "$root/corpus/ptx" -name '*.ptx' -type f -size -100k -print0)
fi
if [ "$nseeds" = 0 ]; then
	for f in "$root"/tests/bad/*.ptx; do
		[ -f "$f" ] || continue
		cp -f "$f" "$corpus/seed_bad_$(basename "$f")" && nseeds=$((nseeds + 1))
	done
	printf '.version 7.8\n.target sm_80\n.address_size 64\n' >"$corpus/seed_tiny_header"
	cat >"$corpus/seed_tiny_kernel" <<'PTX'
.version 7.8
.target sm_80
.address_size 64

.global .align 4 .b8 tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
.extern .func (.param .b32 r) ext(.param .b64 p);

.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<6>;
	.loc	1 12 3
	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u32 	%r1, [k_param_1];
	mov.u32 	%r2, %tid.x;
	setp.ge.s32 	%p1, %r2, %r1;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4+4], %r2;
	{
	.reg .b32 t;
	mov.b32 t, (1 << 3) + tab;
	}
$L__BB0_2:
	ret;
}
PTX
	cat >"$corpus/seed_tiny_func" <<'PTX'
.version 8.0
.target sm_90a
.address_size 64
.file	1 "/tmp/x.cu", 1700000000, 1234
.section .debug_str
{
$L__info_string0:
.b8 95,90,0
}
.func (.param .b32 func_retval0) f(.param .b32 a)
{
	.reg .b32 %r<3>;
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
	ld.param.b32 %r1, [a];
	@!%r1 bra $L1;
	.pragma "nounroll";
$L1:
	st.param.b32 [func_retval0+0], %r1;
	ret;
}
PTX
	nseeds=$((nseeds + 3))
	echo "fuzz: corpus/ptx is empty; seeding from tests/bad and built-in seeds"
fi
echo "fuzz: $nseeds seed files, corpus $(ls "$corpus" | wc -l) files, running ${secs}s"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$build/fuzz-parse" -max_total_time="$secs" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -dict="$root/tests/fuzz/ptx.dict" -detect_leaks=1 \
	-print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" 2>&1 |
	tee "$build/fuzz.log" | grep -a -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' 
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then
	grep -a -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY|Test unit written' "$build/fuzz.log" | head -10 >&2
	echo "fuzz: fuzz-parse exited with $rc (log: $build/fuzz.log)" >&2
fi
result "$rc"
