#!/usr/bin/env bash
# --ptxas: ptxlink runs ptxas (and nvlink, fatbinary) itself and writes the
# cubin or fatbinary; the compile mode it picks and the ones forced; tool
# errors passed on with context; no output and no temporaries after a
# failure.  Skipped without ptxas.
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
need_ptxas
tools_scratch cli-ptxas   # the tools' temporaries in t/: none may stay (clean)
hdr='.version 8.5\n.target sm_80\n.address_size 64\n'
elf() { [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; }
# a whole program: a kernel calling a function in another file
printf "$hdr"'.extern .func (.param .b32 r) sq(.param .b32 a);\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\nld.global.u32 %%r1, [%%rd1];\n{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %%r1;\ncall (r), sq, (a);\nld.param.b32 %%r2, [r];\n}\nst.global.u32 [%%rd1], %%r2;\nret;\n}\n' >main.ptx
printf "$hdr"'.visible .func (.param .b32 r) sq(.param .b32 a)\n{\n.reg .b32 %%r<3>;\nld.param.b32 %%r1, [a];\nmul.lo.s32 %%r2, %%r1, %%r1;\nst.param.b32 [r], %%r2;\nret;\n}\n' >sq.ptx
# recursion: measured (fact's 8 spill bytes fewer relocatable, but whole's SASS 768 bytes
# against 896: nv_mode_better's whole; but those 32 spill bytes are more than the
# inputs compiled apart give, -rdc's 24: relocatable, nv_mode_pick)
printf "$hdr"'.visible .func (.param .b32 r) fact(.param .b32 a)\n{\n.reg .pred %%p;\n.reg .b32 %%r<4>;\nld.param.b32 %%r1, [a];\nsetp.lt.s32 %%p, %%r1, 2;\nmov.u32 %%r3, 1;\n@%%p bra done;\nsub.s32 %%r2, %%r1, 1;\n{\n.param .b32 a1;\n.param .b32 r1;\nst.param.b32 [a1], %%r2;\ncall (r1), fact, (a1);\nld.param.b32 %%r3, [r1];\n}\nmul.lo.s32 %%r3, %%r3, %%r1;\ndone:\nst.param.b32 [r], %%r3;\nret;\n}\n' >fact.ptx
sed 's/ sq/ fact/g' main.ptx >main2.ptx

"$ptxlink" --ptxas -v -arch=sm_80 main.ptx sq.ptx -o app.cubin 2>err; rc=$?
check "auto: a whole program" "[ $rc = 0 ] && elf app.cubin && grep -q 'compile mode: whole program' err && grep -q 'running .*ptxas -arch=sm_80 app.linked.ptx -o app.cubin' err && clean"
"$ptxlink" --ptxas -v -arch=sm_80 main2.ptx fact.ptx -o rec.cubin 2>err; rc=$?
check "auto: recursion is measured, with the inputs compiled apart" "[ $rc = 0 ] && elf rec.cubin && grep -q 'compile mode: relocatable, ptxas -c and nvlink (measured for sm_80: .* 32, 16, 24 (64 warps) and 768 whole; 24, 16, 24 (64 warps) and 896 relocatable; 24, 16, 24 (64 warps) and 896 the inputs compiled apart, as nvcc -rdc does;.*recursion)' err && grep -q 'running .*ptxas -arch=sm_80 -v rec.linked.ptx -o rec.whole.cubin' err && grep -q 'running .*ptxas -arch=sm_80 -c -v rec.linked.ptx -o rec.relocatable.o' err && grep -q 'running .*nvlink -arch=sm_80 rec.relocatable.o .*-o rec.relocatable.cubin' err && grep -q \"running .*ptxas -arch=sm_80 -c -v $PWD/main2.ptx -o rec.apart1.o\" err && grep -q \"running .*ptxas -arch=sm_80 -c -v $PWD/fact.ptx -o rec.apart2.o\" err && grep -q 'running .*nvlink -arch=sm_80 rec.apart1.o rec.apart2.o .*-o rec.apart.cubin' err && ! sed -n '/compile mode:/,\$p' err | grep -q running && clean"
# from standard input there are no files to compile apart: nv_mode_better's whole
cat fact.ptx >rec1.ptx && sed -n '/\.entry/,$p' main2.ptx >>rec1.ptx
"$ptxlink" --ptxas -v -arch=sm_80 -o rec1.cubin - <rec1.ptx 2>err; rc=$?
check "auto: recursion from standard input, no reference" "[ $rc = 0 ] && elf rec1.cubin && grep -q 'compile mode: whole program (measured for sm_80: .* 32, 16, 24 (64 warps) and 768 whole; 24, 16, 24 (64 warps) and 896 relocatable; 0 functions' err && [ \"\$(grep -c 'running [^ ]*/ptxas ' err)\" = 2 ] && clean"
for m in whole relocatable; do
	"$ptxlink" --ptxas -v --compile-mode=$m -arch=sm_80 main.ptx sq.ptx -o $m.cubin 2>err; rc=$?
	check "--compile-mode=$m" "[ $rc = 0 ] && elf $m.cubin && grep -q 'compile mode: [a-z]*.*(--compile-mode;' err && clean"
done
check "the forced modes differ" "! cmp -s whole.cubin relocatable.cubin && grep -q 'nvlink' err"
# the measured compile is the output: ptxas twice, nothing run after the choice
measured_once() { [ "$(grep 'running [^ ]*/ptxas ' err | grep -vc '\.apart[0-9]*\.o')" = 2 ] && ! sed -n '/compile mode:/,$p' err | grep -q running; }
# function pointers called through plain pointers: no count of them
# tells the mode, ptxas -v measures both (fnptr without devirtualization:
# 112 spill bytes whole, 0 relocatable; mono_iface: 96 whole, 176 -c, but
# whole's 21,376 SASS bytes are 43% more than the 14,976 the inputs
# compiled apart give, relocatable's 14,336 are not)
"$ptxlink" --ptxas -v --no-devirt -arch=sm_80 "$root"/corpus/ptx/fnptr/*.ptx -o fp.cubin 2>err; rc=$?
check "auto: measured, relocatable" "[ $rc = 0 ] && elf fp.cubin && grep -q 'compile mode: relocatable.*(measured for sm_80: spill bytes, stack, registers and .text bytes [0-9]*, [0-9]*, [0-9]* ([0-9]* warps) and [0-9]* whole; 0, [0-9]*, [0-9]* ([0-9]* warps) and [0-9]* relocatable;' err && grep -q 'running .*nvlink' err && measured_once && clean"
"$ptxlink" --ptxas -v --no-devirt -arch=sm_80 "$root"/corpus/ptx/mono_iface/*.ptx -o mi.cubin 2>err; rc=$?
check "auto: measured, whole larger than -rdc's code: relocatable" "[ $rc = 0 ] && elf mi.cubin && grep -q 'compile mode: relocatable, ptxas -c and nvlink (measured for sm_80: .* relocatable; [0-9]*, [0-9]*, [0-9]* ([0-9]* warps) and [0-9]* the inputs compiled apart' err && measured_once && clean"
# calls left after the stages (here --inline=never), equal spills,
# stacks and warps: the .text bytes decide.  Whole-program ptxas copies mix into each
# of the 3 kernels and still calls it (4,608 bytes against 2,560 with ptxas 13);
# ptxas's own -v is passed on only when asked for.
{ printf "$hdr"'.visible .func (.param .b32 r) mix(.param .b32 a)\n{\n.reg .b32 %%r<4>;\nld.param.b32 %%r1, [a];\nmov.u32 %%r2, %%r1;\n'
  for i in $(seq 24); do
	printf 'mul.lo.s32 %%r3, %%r2, %d;\nxor.b32 %%r2, %%r3, %%r1;\nshf.l.wrap.b32 %%r1, %%r2, %%r1, %d;\n' $((i * 2654435 + 1)) $((i % 31 + 1))
  done
  printf 'st.param.b32 [r], %%r1;\nret;\n}\n'
  for k in 1 2 3; do sed -n '/\.entry/,$p' main.ptx | sed "s/ k(/ k$k(/; s/ sq,/ mix,/"; done; } >tie.ptx
"$ptxlink" --ptxas -v --inline=never -arch=sm_80 tie.ptx -o tie.cubin 2>err; rc=$?
said=$(sed -n 's/.*(measured for sm_80: spill bytes, stack, registers and .text bytes 0, 0, [0-9]* (\([0-9]*\) warps) and \([0-9]*\) whole; 0, 0, [0-9]* (\([0-9]*\) warps) and \([0-9]*\) relocatable;.* 3 functions calling, .*/\1 \2 \3 \4/p' err)
set -- $said
check "auto: a tie on spills, stack and warps, less .text relocatable ($said)" "[ $rc = 0 ] && elf tie.cubin && grep -q 'compile mode: relocatable' err && [ \"$1\" = \"$3\" ] && [ \"$2\" -gt \"$4\" ] && measured_once && ! grep -q '^ptxlink: ptxas: ptxas info' err && clean"
# registers before .text: relocatable's full-ABI calls give virtual_shapes
# less SASS but more registers (ptxas 13: 20,736 bytes at 37 registers, 48
# warps, against 22,784 at 32, 64 warps): whole program
"$ptxlink" --ptxas -v -arch=sm_80 "$root"/corpus/ptx/virtual_shapes.sm_80.ptx -o vs.cubin 2>err; rc=$?
said=$(sed -n 's/.*(measured for sm_80: spill bytes, stack, registers and .text bytes \([0-9]*\), \([0-9]*\), [0-9]* (\([0-9]*\) warps) and \([0-9]*\) whole; \([0-9]*\), \([0-9]*\), [0-9]* (\([0-9]*\) warps) and \([0-9]*\) relocatable;.*/\1 \2 \3 \4 \5 \6 \7 \8/p' err)
set -- $said
check "auto: more warps whole, less .text relocatable: whole ($said)" "[ $rc = 0 ] && grep -q 'compile mode: whole program (measured' err && [ \"$1 $2\" = \"$5 $6\" ] && [ \"$3\" -gt \"$7\" ] && [ \"$4\" -gt \"$8\" ] && measured_once && clean"
"$ptxlink" --ptxas -Xptxas -v --inline=never -arch=sm_80 tie.ptx -o tie.cubin 2>err; rc=$?
check "auto: measured, -Xptxas -v passed on" "[ $rc = 0 ] && grep -q '^ptxlink: ptxas: ptxas info    : Function properties for mix' err && [ \$(grep -c '^ptxlink: ptxas: ptxas info    : Used [0-9]* registers' err) = 3 ]"
"$ptxlink" --ptxas -v -arch=sm_80 main.ptx sq.ptx -o none.cubin 2>err; rc=$?
check "auto: no call left, whole unmeasured" "[ $rc = 0 ] && grep -q 'compile mode: whole program (0 functions address-taken, .* 0 functions calling' err && [ \"\$(grep -c 'running [^ ]*/ptxas ' err)\" = 1 ]"
# no call left, but ptxas calls a division subroutine of its own that
# whole-program mode copies into each kernel dividing, and ptxas -c and
# nvlink keep once (ptxas 13: 4,352 .text bytes whole, 2,816
# relocatable): measured.  A different division in each (.ftz or not)
# gets a subroutine each either way: whole, unmeasured.
divk() { printf '.visible .entry %s(.param .u64 p)\n{\n.reg .b64 %%rd<2>;\n.reg .f32 %%f<4>;\nld.param.u64 %%rd1, [p];\nld.global.f32 %%f1, [%%rd1];\nld.global.f32 %%f2, [%%rd1+4];\n%s %%f3, %%f1, %%f2;\nst.global.f32 [%%rd1], %%f3;\nret;\n}\n' "$1" "$2"; }
{ printf "$hdr"; divk ka div.rn.f32; divk kb div.rn.f32; } >div2.ptx
"$ptxlink" --ptxas -v -arch=sm_80 div2.ptx -o div2.cubin 2>err; rc=$?
said=$(sed -n 's/.*(measured for sm_80: spill bytes, stack, registers and .text bytes 0, 0, [0-9]* ([0-9]* warps) and \([0-9]*\) whole; 0, 0, [0-9]* ([0-9]* warps) and \([0-9]*\) relocatable;.* 0 functions calling, no recursion, ptxas.s subroutine for div.rn.f32 in 2 kernels)/\1 \2/p' err)
set -- $said
check "auto: a slow path in two kernels, measured: relocatable ($said)" "[ $rc = 0 ] && elf div2.cubin && grep -q 'compile mode: relocatable' err && [ \"${1:-0}\" -gt \"${2:-0}\" ] && measured_once && clean"
{ printf "$hdr"; divk ka div.rn.f32; divk kb div.rn.ftz.f32; } >div1.ptx
"$ptxlink" --ptxas -v -arch=sm_80 div1.ptx -o div1.cubin 2>err; rc=$?
check "auto: different slow paths, whole unmeasured" "[ $rc = 0 ] && elf div1.cubin && grep -q 'compile mode: whole program (0 functions address-taken, .* no recursion)' err && [ \"\$(grep -c 'running [^ ]*/ptxas ' err)\" = 1 ] && clean"
"$ptxlink" --ptxas -arch=sm_80 main.ptx sq.ptx -o again.cubin
check "deterministic" "cmp -s app.cubin again.cubin"
"$ptxlink" --ptxas -arch=sm_80 main.ptx sq.ptx -o - >stdout.cubin
check "-o - writes the cubin to stdout" "cmp -s app.cubin stdout.cubin"
"$ptxlink" --ptxas -Xptxas -v -arch=sm_80 main.ptx sq.ptx -o xv.cubin 2>err; rc=$?
check "-Xptxas -v: ptxas's output, prefixed" "[ $rc = 0 ] && grep -q '^ptxlink: ptxas: ptxas info    : Used [0-9]* registers' err"
"$ptxlink" --ptxas='-v -O1' -arch=sm_80 main.ptx sq.ptx -o xv.cubin 2>err; rc=$?
check "--ptxas=OPTS" "[ $rc = 0 ] && grep -q '^ptxlink: ptxas: ptxas info' err"
"$ptxlink" --ptxas -Xptxas -maxrregcount=16,-v -arch=sm_80 main.ptx sq.ptx -o xv.cubin 2>err; rc=$?
check "-Xptxas A,B" "[ $rc = 0 ] && grep -q '^ptxlink: ptxas: ptxas info' err"
"$ptxlink" --ptxas -v -g -lineinfo -maxrregcount=32 -arch=sm_80 main.ptx sq.ptx -o g.cubin 2>err; rc=$?
check "-g, -lineinfo, -maxrregcount reach ptxas" "[ $rc = 0 ] && grep -q 'ptxas -arch=sm_80 -g -lineinfo -maxrregcount 32 ' err"
"$ptxlink" --ptxas -v -fmad=false -Ofc max -warn-spills -arch=sm_80 main.ptx sq.ptx -o f.cubin 2>err; rc=$?
check "ptxas's own options reach ptxas" "[ $rc = 0 ] && elf f.cubin && grep -q 'ptxas -arch=sm_80 -fmad false -Ofc max -warn-spills app.linked.ptx\\|ptxas -arch=sm_80 -fmad false -Ofc max -warn-spills f.linked.ptx' err"
"$ptxlink" --fatbin -arch=sm_80 main.ptx sq.ptx -o app.fatbin 2>err; rc=$?
"$ptxlink" --fatbin -arch=sm_80 main.ptx sq.ptx -o app2.fatbin
check "--fatbin: a fatbinary, deterministic" "[ $rc = 0 ] && [ \"\$(head -c 4 app.fatbin | od -An -tx1 | tr -d ' ')\" = 50ed55ba ] && cmp -s app.fatbin app2.fatbin && clean"

"$ptxlink" --fatbin -v -arch=sm_80 main.ptx sq.ptx -o 'a,b=c d.fatbin' 2>err; rc=$?
check "--fatbin -o 'a,b=c d.fatbin': temporaries named without the comma" "[ $rc = 0 ] && cmp -s 'a,b=c d.fatbin' app.fatbin && grep -q 'file=a_b_c_d.cubin' err && clean"
# failures: a message with the tool's words and context, no output left
printf "$hdr"'.visible .global .u32 x;\n.visible .entry k()\n{\n.reg .b64 %%rd<3>;\n.reg .b32 %%r<3>;\nadd.s32 %%r1, %%rd1, %%rd2;\nst.global.u32 [x], %%r1;\nret;\n}\n' >bad.ptx
echo old >keep.cubin
"$ptxlink" --ptxas -arch=sm_80 bad.ptx -o keep.cubin 2>err; rc=$?
check "a ptxas error" "[ $rc = 1 ] && grep -q \"^ptxlink: ptxas: ptxas keep.linked.ptx, line 10; error   : Arguments mismatch for instruction 'add'\" err && grep -q '^ptxlink: error: ptxas failed (exit status 255) on the linked PTX' err && [ \"\$(cat keep.cubin)\" = old ] && clean"
"$ptxlink" --ptxas -Xptxas --bogus -arch=sm_80 main.ptx sq.ptx -o x.cubin 2>err; rc=$?
check "a bad -Xptxas option" "[ $rc = 1 ] && grep -q '^ptxlink: ptxas: .*bogus' err && [ ! -e x.cubin ] && clean"
# device-side launches (corpus/ptx/dynpar_multi): only nvlink resolves them
dynpar=$root/corpus/ptx/dynpar_multi
"$ptxlink" --ptxas --compile-mode=whole -arch=sm_80 "$dynpar"/*.ptx -o x.cubin 2>err; rc=$?
check "whole mode cannot resolve the device runtime" "[ $rc = 1 ] && grep -q \"compile-mode=whole: '[a-zA-Z0-9_]*' is undefined and only nvlink can resolve it\" err && [ ! -e x.cubin ]"
"$ptxlink" --ptxas -v -arch=sm_80 "$dynpar"/*.ptx -o devrt.cubin 2>err; rc=$?
check "auto: the device runtime needs nvlink" "[ $rc = 0 ] && elf devrt.cubin && grep -q \"relocatable.*'[a-zA-Z0-9_]*' is left to nvlink\" err && grep -q -- '-lcudadevrt' err"
devrt=$(dirname "$(command -v nvlink)")/../targets/x86_64-linux/lib
"$ptxlink" --ptxas -v -arch=sm_80 "$dynpar"/*.ptx -L"$devrt" -lcudadevrt -o devrt2.cubin 2>err; rc=$?
check "-lcudadevrt as nvlink users give it: to nvlink, once" "[ $rc = 0 ] && elf devrt2.cubin && [ \$(grep 'running .*nvlink' err | grep -o cudadevrt | wc -l) = 1 ] && ! grep -q 'stray\\|error' err && clean"
if command -v nvcc >/dev/null; then   # a user's nvcc -rdc library: nvlink resolves sq
	printf '__device__ int sq(int x) { return x * x; }\n' >sq.cu
	printf '__device__ int sq(int x);\n__global__ void k(int *p) { p[0] = sq(p[0]); }\n' >k.cu
	nvcc -arch=sm_80 -rdc=true -lib sq.cu -o libsq.a && nvcc -arch=sm_80 -rdc=true --ptx k.cu -o k.ptx
	"$ptxlink" --ptxas -v -arch=sm_80 k.ptx -L. -lsq -o rdc.cubin 2>err; rc=$?
	check "an nvcc -rdc library goes to nvlink" "[ $rc = 0 ] && elf rdc.cubin && grep -q \"compile mode: relocatable.*'_Z2sqi' is left to nvlink\" err && grep -q 'running .*nvlink -arch=sm_80 rdc.o /.*/libsq.a' err && clean"
fi
PATH=/usr/bin:/bin CUDA_HOME=$tmp/nocuda "$ptxlink" --ptxas -arch=sm_80 main.ptx sq.ptx -o x.cubin 2>err; rc=$?
check "no ptxas anywhere" "[ $rc = 1 ] && grep -q \"^ptxlink: error: cannot find ptxas: not on PATH, not in $tmp/nocuda/bin (set CUDA_HOME\" err && [ ! -e x.cubin ] && clean"
PATH=/usr/bin:/bin CUDA_HOME= CUDA_PATH=/usr/local/cuda "$ptxlink" --ptxas -arch=sm_80 main.ptx sq.ptx -o cp.cubin 2>err; rc=$?
check "ptxas found through CUDA_PATH" "[ $rc = 0 ] && cmp -s cp.cubin app.cubin"
"$ptxlink" --ptxas main.ptx sq.ptx -o x.cubin 2>err; rc=$?
check "--ptxas needs -arch" "[ $rc = 2 ] && grep -q -- '--ptxas needs -arch=sm_XX' err"

"$ptxlink" --ptxas --verify --time -arch=sm_80 main2.ptx fact.ptx -o t.cubin 2>err; rc=$?
phases=$(sed -n 's/^ptxlink: time: \([a-z-]*\) *[0-9.]* ms$/\1/p' err | tr '\n' ' ')
check "--time with --ptxas ($phases)" "[ $rc = 0 ] && [ '$phases' = 'parse link devirt reroll dce unrecurse inline printf globalopt ipo fold locals depot dce-late addrprep print ptxas ptxas nvlink ptxas ptxas nvlink ' ]"

# several architectures in one fatbinary (fatbin_images: lib.sh)
"$ptxlink" --fatbin -v -arch=sm_80 -arch=sm_90 main.ptx sq.ptx -o two.fatbin 2>err; rc=$?
check "two -arch: a cubin each, PTX for the newest ($(fatbin_images two.fatbin))" "[ $rc = 0 ] && [ \"\$(fatbin_images two.fatbin)\" = 'elf 80 elf 90 ptx 90 ' ] && grep -q 'ptxas -arch=sm_90 two.linked.ptx -o two.sm_90.cubin' err && clean"
"$ptxlink" --fatbin -gencode arch=compute_80,code=sm_80 -gencode 'arch=compute_86,code=[sm_86,compute_86]' -gencode=arch=compute_90,code=sm_90 main.ptx sq.ptx -o gen.fatbin 2>err; rc=$?
check "-gencode ($(fatbin_images gen.fatbin))" "[ $rc = 0 ] && [ \"\$(fatbin_images gen.fatbin)\" = 'elf 80 elf 86 elf 90 ptx 86 ptx 90 ' ] && clean"
"$ptxlink" --fatbin -arch=sm_90 -arch=sm_80 "$dynpar"/*.ptx -o dyn2.fatbin 2>err; rc=$?
check "two architectures, relocatable ($(fatbin_images dyn2.fatbin))" "[ $rc = 0 ] && [ \"\$(fatbin_images dyn2.fatbin)\" = 'elf 90 elf 80 ptx 90 ' ] && clean"
# the PTX for a newer architecture: its .target, and the .version it needs
mkdir -p wrap keep
printf '#!/bin/sh\ncp *.ptx %s/keep/\nexec "%s" "$@"\n' "$tmp" "$(command -v fatbinary)" >wrap/fatbinary
chmod +x wrap/fatbinary
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n' >old.ptx
PATH=$tmp/wrap:$PATH "$ptxlink" --fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 old.ptx -o old.fatbin 2>err; rc=$?
check "PTX retargeted for compute_90" "[ $rc = 0 ] && [ \"\$(head -2 keep/old.sm_90.ptx | tr '\n' ' ')\" = '.version 7.8 .target sm_90 ' ] && ptxas -arch=sm_90 keep/old.sm_90.ptx -o /dev/null && [ \"\$(head -2 keep/old.linked.ptx | tr '\n' ' ')\" = '.version 7.0 .target sm_80 ' ]"
"$ptxlink" --ptxas -arch=sm_80 -arch=sm_90 main.ptx sq.ptx -o x.cubin 2>err; rc=$?
check "two architectures need --fatbin" "[ $rc = 2 ] && grep -q 'several architectures: a cubin is for one GPU; --fatbin' err && [ ! -e x.cubin ]"
"$ptxlink" --fatbin -gencode arch=compute_90,code=sm_80 main.ptx -o x.fatbin 2>err; rc=$?
check "-gencode: code= older than arch=" "[ $rc = 2 ] && grep -q 'code= is older than arch=' err"
"$ptxlink" --fatbin -gencode sm_80 main.ptx -o x.fatbin 2>err; rc=$?
check "-gencode: nvcc's form" "[ $rc = 2 ] && grep -q 'arch=compute_XX,code=sm_XX' err"

# Architecture-specific (a) and family-specific (f) targets: ptxas compiles
# sm_90a PTX for sm_90a alone and sm_100f PTX for its family (sm_100,
# sm_103), so a link serving another architecture or family is for the
# plain target (sm_90, sm_100), and the PTX for the newest is plain (a
# later GPU JITs no sm_120a PTX).  The images' kinds and targets are read
# from ptxlink -v's fatbinary line (no cuobjdump on these machines) and
# from the PTX the wrapper kept.
img() { sed -n 's/.*running [^ ]*fatbinary -64 --create=[^ ]* \(.*\) (in .*/\1/p' err | sed 's/--image3=kind=\([a-z]*\),sm=\([0-9a-z]*\),file=[^ ]*/\1 \2/g'; }
target() { sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$1"; }
for pair in "sm_90a sm_100a sm_90 elf 90a elf 100a ptx 100" "sm_100f sm_110f sm_100 elf 100f elf 110f ptx 110" \
	"sm_120 sm_120a sm_120 elf 120 elf 120a ptx 120"; do
	set -- $pair
	rm -f keep/*
	PATH=$tmp/wrap:$PATH "$ptxlink" --fatbin -v -arch=$1 -arch=$2 main.ptx sq.ptx -o ab.fatbin 2>err; rc=$?
	shift 3
	check "-arch=${pair%% *} -arch=$(echo $pair | cut -d' ' -f2): linked for $(echo $pair | cut -d' ' -f3), images '$(img)'" \
		"[ $rc = 0 ] && [ \"\$(img)\" = '$*' ] && [ \"\$(target keep/ab.linked.ptx)\" = $(echo $pair | cut -d' ' -f3) ] && [ \"\$(fatbin_images ab.fatbin)\" = '$(echo "$*" | sed 's/\([0-9]\)[af]/\1/g') ' ] && clean"
done
check "sm_120 with sm_120a: the PTX image is the plain sm_120" "[ \"\$(ls keep)\" = ab.linked.ptx ] && [ \"\$(target keep/ab.linked.ptx)\" = sm_120 ]"
# family-specific input: linked for sm_100 it is .target sm_100f, which
# sm_103 compiles, and the PTX for the newest is sm_103f (the plain one
# refuses tcgen05); sm_110 is another family
printf '.version 8.8\n.target sm_100f\n.address_size 64\n.visible .entry fk(.param .u64 p)\n{\ntcgen05.fence::before_thread_sync;\nret;\n}\n' >fam.ptx
rm -f keep/*
PATH=$tmp/wrap:$PATH "$ptxlink" --fatbin -v -arch=sm_100 -arch=sm_103 fam.ptx -o fam.fatbin 2>err; rc=$?
check "sm_100f input for sm_100 and sm_103 ('$(img)')" "[ $rc = 0 ] && [ \"\$(img)\" = 'elf 100 elf 103 ptx 103f' ] && [ \"\$(target keep/fam.sm_103f.ptx)\" = sm_103f ] && ptxas -arch=sm_103 keep/fam.sm_103f.ptx -o /dev/null && clean"
"$ptxlink" --fatbin -arch=sm_100 -arch=sm_110 fam.ptx -o fam2.fatbin 2>err; rc=$?
check "sm_100f input for sm_110: refused" "[ $rc = 1 ] && grep -q 'error: the linked PTX is for .target sm_100f (an input.s), which ptxas cannot compile for sm_110' err && [ ! -e fam2.fatbin ] && clean"
"$ptxlink" --fatbin -arch=sm_90a -arch=sm_100a fam.ptx -o fam3.fatbin 2>err; rc=$?
check "sm_100f input for sm_90a and sm_100a: refused by the link, which says why sm_90" "[ $rc = 1 ] && grep -q \"'.target sm_100f' cannot be linked for -arch=sm_90\\\$\" err && grep -qx 'ptxlink: note: the link is for sm_90, not sm_90a: ptxas compiles sm_90a PTX for no other architecture named' err && clean"

# SIGINT or SIGTERM while ptxas runs: ptxlink ends its tool (and the tool's
# own children: here a slow fake ptxas and the sleep it waits for), leaves
# the old output as it was and no temporaries
mkdir -p slow
printf '#!/bin/sh\necho $$ >%s/tool.pid\nsleep 60 &\necho $! >%s/sleep.pid\nwait\n' "$tmp" "$tmp" >slow/ptxas
chmod +x slow/ptxas
gone() { s=$(ps -o stat= -p "$1" 2>/dev/null); [ -z "$s" ] || [ "${s#Z}" != "$s" ]; }   # or a zombie of init's
for sig in INT TERM; do
	rm -f tool.pid sleep.pid
	echo old >sig.cubin
	PATH=$tmp/slow:$PATH "$ptxlink" --ptxas -arch=sm_80 main.ptx sq.ptx -o sig.cubin 2>err & lp=$!
	for i in $(seq 100); do [ -s sleep.pid ] && break; sleep 0.1; done
	kill -$sig $lp; wait $lp; rc=$?
	check "SIG$sig during ptxas: the tool ended with ptxlink" "[ -s sleep.pid ] && [ $rc -gt 128 ] && gone \$(cat tool.pid) && gone \$(cat sleep.pid) && [ \"\$(cat sig.cubin)\" = old ] && clean"
	[ -s sleep.pid ] && ! gone "$(cat sleep.pid)" && kill "$(cat sleep.pid)" "$(cat tool.pid)" 2>/dev/null
done

finish cli-ptxas
