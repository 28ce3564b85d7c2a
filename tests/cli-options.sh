#!/usr/bin/env bash
# ptxlink's options as nvlink and ptxas spell them, matched exactly, their
# values checked; PTX libraries (-L, -l); inputs that are not PTX.
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
scratch cli-options
cd "$tmp"
hdr='.version 8.5\n.target sm_80\n.address_size 64\n'
printf "$hdr"'.visible .entry k(.param .u64 p)\n{\n\tret;\n}\n' >ok.ptx
"$ptxlink" -arch=sm_80 ok.ptx -o ref.ptx

# -arch and its spellings, with = and with a separate value
for a in "-arch=sm_80" "-arch sm_80" "--arch=sm_80" "--arch sm_80" "--gpu-name=sm_80" \
	"--gpu-name sm_80" "--gpu-architecture=sm_80"; do
	"$ptxlink" $a ok.ptx -o a.ptx 2>err; rc=$?
	check "$a" "[ $rc = 0 ] && cmp -s a.ptx ref.ptx"
done
for a in "-o o1.ptx" "-oo1.ptx" "-o=o1.ptx" "--output-file o1.ptx" "--output-file=o1.ptx"; do
	rm -f o1.ptx; "$ptxlink" -arch=sm_80 ok.ptx $a; rc=$?
	check "$a" "[ $rc = 0 ] && cmp -s o1.ptx ref.ptx"
done
"$ptxlink" -arch=sm_80 ok.ptx -o 2>err; rc=$?
check "-o without a file" "[ $rc = 2 ] && grep -q \"'-o' needs a value\" err"
printf '%s -o %s\n' "-arch=sm_80 ok.ptx" optf.ptx >args.rsp
"$ptxlink" -optf args.rsp && "$ptxlink" --options-file=args.rsp && "$ptxlink" @args.rsp
check "-optf, --options-file=, @: not -o ptf" "cmp -s optf.ptx ref.ptx && [ ! -e ptf ] && [ ! -e ptf.ptx ]"
check "-V" "\"$ptxlink\" -V | grep -q '^ptxlink [0-9]'"
check "-h" "\"$ptxlink\" -h | grep -q '^usage: ptxlink'"
"$ptxlink" --help >help
missing=
for o in -o --output-file -arch --gpu-name -optf --options-file @FILE -v --verbose -V --version \
	-w -Werror -Werror=format -O0 -g -m64 -m32 -L -l -lineinfo -maxrregcount --ptxas -Xptxas \
	--fatbin --compile-mode --time --allow-undefined --strip-debug --verify --no-verify \
	--no-stages --print-after --stats --no-devirt --devirt-funnel-max -Rpass=devirt \
	--no-globalopt --internalize --keep --keep-file -Rpass=globalopt --no-depot -Rpass=depot \
	-Rpass-analysis=depot --ipo --no-ipo -Rpass=ipo --warn-stack-size --addrprep --no-addrprep -Rpass=addrprep \
	--opt-locals --no-opt-locals -Rpass=locals; do
	grep -q -e "^  $o\b" -e ", $o\b" help || missing="$missing $o"
done
check "--help lists every option (missing:$missing)" "[ -z '$missing' ]"
# the man page's OPTIONS and docs/command-line.md are the option table's
# (tools/lib/opttab.h), as tools/cli/gen-docs.sh writes them
"$ptxlink" --help=man >man.gen
sed -n '/^\.SH OPTIONS$/,/^\.SH /p' "$top/tools/cli/ptxlink.1" | sed '$d' >man.have
check "ptxlink.1's OPTIONS are the table's (run tools/cli/gen-docs.sh)" "cmp -s man.gen man.have"
"$ptxlink" --help=markdown >md.gen
check "docs/command-line.md is the table's (run tools/cli/gen-docs.sh)" "cmp -s md.gen '$top/docs/command-line.md'"
"$ptxlink" --help=roff ok.ptx 2>err; rc=$?
check "--help=roff refused" "[ $rc = 2 ] && grep -q \"'--help=roff': the help's forms are man and markdown\" err"

# prefixes are not options: each of these is refused, not read as a shorter one
for a in -vv --verb -archsm_80 --ptxas-x -Werror=all -Rpass=bogus -maxrregcount32 -mfoo -m6; do
	rm -f x.ptx; "$ptxlink" $a ok.ptx -o x.ptx 2>err; rc=$?
	check "'$a' refused" "[ $rc = 2 ] && [ ! -e x.ptx ] && grep -q 'ptxlink: error: ' err"
done
# values are checked
for a in -O4 -Ox --opt-level=x -m32 --machine=32 -maxrregcount=0 -maxrregcount=x \
	--compile-mode=fast --devirt-funnel-max=3x --warn-stack-size=-1 --addrprep=bogus \
	--addrprep=narrow,, --addrprep=; do
	rm -f x.ptx; "$ptxlink" $a ok.ptx -o x.ptx 2>err; rc=$?
	check "'$a' refused with a message" "[ $rc = 2 ] && [ ! -e x.ptx ] && [ \$(wc -l <err) = 1 ]"
done
"$ptxlink" ok.ptx -l 2>err; rc=$?
check "-l without a name" "[ $rc = 2 ] && grep -q \"'-l' needs a value\" err"
"$ptxlink" -m32 ok.ptx 2>err
check "-m32 says why" "grep -q '64-bit PTX only' err"
for a in -m64 "--machine 64" -g -lineinfo -maxrregcount=64 -O3 "--opt-level 3"; do
	"$ptxlink" $a -arch=sm_80 ok.ptx -o a.ptx 2>err; rc=$?
	check "'$a' accepted" "[ $rc = 0 ] && cmp -s a.ptx ref.ptx"
done

# -w and -Werror: a depot over --warn-stack-size is a warning (--no-sroa: its
# two words would go to registers; --no-opt-locals: its loads would be moves)
printf "$hdr"'.visible .entry k(.param .u64 p)\n{\n.local .align 4 .b8 __local_depot0[64];\n.reg .b64 %%SPL;\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\nmov.u64 %%SPL, __local_depot0;\nld.param.u64 %%rd1, [p];\nld.global.u32 %%r1, [%%rd1];\nst.local.u32 [%%SPL], %%r1;\nst.local.u32 [%%SPL+60], %%r1;\nld.local.u32 %%r2, [%%SPL+60];\nld.local.u32 %%r1, [%%SPL];\nadd.s32 %%r1, %%r1, %%r2;\nst.global.u32 [%%rd1], %%r1;\nret;\n}\n' >depot.ptx
"$ptxlink" --no-sroa --no-opt-locals --warn-stack-size=4 depot.ptx -o d.ptx 2>err; rc=$?
check "a warning" "[ $rc = 0 ] && grep -q 'depot.ptx:.*warning: stack frame size' err"
"$ptxlink" --no-sroa --no-opt-locals -w --warn-stack-size=4 depot.ptx -o d.ptx 2>err; rc=$?
check "-w: no warning" "[ $rc = 0 ] && [ ! -s err ]"
rm -f d.ptx; "$ptxlink" --no-sroa --no-opt-locals -Werror --warn-stack-size=4 depot.ptx -o d.ptx 2>err; rc=$?
check "-Werror: the warning is an error" "[ $rc = 1 ] && grep -q 'depot.ptx:.*error: stack frame size' err && [ ! -e d.ptx ]"

# -O: -O0 printf lowering only, -O1 + globalopt, -O2 + devirt, -O3 + depot
printf "$hdr"'.func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %%r<2>;\nld.param.b32 %%r1, [a];\nst.param.b32 [r], %%r1;\nret;\n}\n.func dead()\n{\nret;\n}\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\nmov.u64 %%rd1, f;\n{\n.param .b32 a;\n.param .b32 r;\nmov.u32 %%r1, 1;\nst.param.b32 [a], %%r1;\npr: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (r), %%rd1, (a), pr;\n}\nret;\n}\n' >icall.ptx
for l in 0 1 2 3; do "$ptxlink" -arch=sm_80 -O$l icall.ptx -o O$l.ptx; done
"$ptxlink" -arch=sm_80 icall.ptx -o Odefault.ptx
check "-O0 keeps dead code and the indirect call" "grep -q 'dead' O0.ptx && grep -q 'call.*%rd1' O0.ptx"
check "-O1 removes dead code only" "! grep -q 'dead' O1.ptx && grep -q 'call.*%rd1' O1.ptx"
check "-O2 devirtualizes, then inlines: no call left" "! grep -q 'call' O2.ptx && grep -q 'call.*%rd1' O1.ptx"
check "-O3 is the default" "cmp -s O3.ptx Odefault.ptx"
"$ptxlink" -O0 -O2 -arch=sm_80 icall.ptx -o last.ptx
check "the last -O wins" "cmp -s last.ptx O2.ptx"

# --opt-locals (on by default): the last of it and --no-opt-locals wins,
# and below -O3 the stage does not run
printf "$hdr"'.visible .entry k(.param .u64 p)
{
.local .align 4 .b8 d[4];
.reg .b32 %%r<3>;
.reg .b64 %%rd<2>;
ld.param.u64 %%rd1, [p];
mov.u32 %%r1, %%tid.x;
st.local.u32 [d], %%r1;
ld.local.u32 %%r2, [d];
st.global.u32 [%%rd1], %%r2;
ret;
}
' >loc.ptx
"$ptxlink" -arch=sm_80 --stats loc.ptx -o /dev/null 2>loc.default
"$ptxlink" -arch=sm_80 --stats --no-opt-locals --opt-locals loc.ptx -o loc.on.ptx 2>loc.on
"$ptxlink" -arch=sm_80 --stats --opt-locals --no-opt-locals loc.ptx -o /dev/null 2>loc.off
"$ptxlink" -arch=sm_80 --stats --opt-locals -O2 loc.ptx -o /dev/null 2>loc.O2
check "--opt-locals: on by default, the last one wins, not below -O3" \
	"grep -q '^locals: 1 functions changed' loc.default && grep -q '^locals: 1 functions changed: 1 loads forwarded, 1 stores removed' loc.on &&
	! grep -q 'ld.local' loc.on.ptx && ! grep -q '^locals' loc.off && ! grep -q '^locals' loc.O2"

# PTX libraries: a member comes in only if it defines a name still
# undefined, and then what it needs comes in too
mkdir -p libs/dir lib2
printf "$hdr"'.extern .func f();\n.visible .entry k()\n{\ncall f;\nret;\n}\n' >main.ptx
printf "$hdr"'.extern .func g();\n.visible .func f()\n{\ncall g;\nret;\n}\n' >libs/f.ptx
printf "$hdr"'.visible .global .u32 gv;\n.visible .func g()\n{\nst.global.u32 [gv], 1;\nret;\n}\n' >libs/g.ptx
printf "$hdr"'.extern .func nowhere();\n.visible .func h()\n{\ncall nowhere;\nret;\n}\n' >libs/h.ptx
cp libs/f.ptx libs/g.ptx libs/h.ptx libs/dir/
(cd libs && ar rc libfg.a f.ptx h.ptx g.ptx)
cat libs/f.ptx >libs/fonly.ptx
# (--inline=never: the members stay functions to look for; g stores, so
# that no call of them is one whose removal nothing could tell)
linked() { grep -qx '.func f()' "$1" && grep -qx '.func g()' "$1" && ! grep -q 'h()' "$1"; }
"$ptxlink" -arch=sm_80 --inline=never main.ptx -L libs -lfg -o l1.ptx 2>err; rc=$?
check "-L DIR -lNAME: libNAME.a, only the members needed" "[ $rc = 0 ] && linked l1.ptx"
"$ptxlink" -arch=sm_80 --inline=never -Llibs -l dir main.ptx -o l2.ptx 2>err; rc=$?
check "-LDIR -l NAME: a directory of .ptx" "[ $rc = 0 ] && linked l2.ptx"
"$ptxlink" -arch=sm_80 --inline=never main.ptx libs/libfg.a -o l3.ptx 2>err; rc=$?
check "an archive as input is a library" "[ $rc = 0 ] && linked l3.ptx"
"$ptxlink" -arch=sm_80 --inline=never main.ptx -L lib2 -L libs -lfonly -lg -o l4.ptx 2>err; rc=$?
check "NAME.ptx, in the second -L dir, libraries in any order" "[ $rc = 0 ] && linked l4.ptx"
"$ptxlink" -v -arch=sm_80 main.ptx -Llibs -lfg -o l5.ptx 2>err; rc=$?
check "-v says which member came in for which name" "grep -q \"libs/libfg.a(f.ptx) linked: it defines 'f'\" err && grep -q \"libs/libfg.a(g.ptx) linked: it defines 'g'\" err"
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lnothere -o l6.ptx 2>err; rc=$?
check "a missing library" "[ $rc = 1 ] && grep -q \"cannot find -lnothere (no libnothere.a, nothere.ptx or nothere/ in 'libs')\" err && [ ! -e l6.ptx ]"
printf '!<arch>\nf.ptx/          0           0     0     644     99999     `\n' >libs/libbad.a
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lbad -o l7.ptx 2>err; rc=$?
check "a malformed archive" "[ $rc = 1 ] && grep -q 'libs/libbad.a: error: malformed ar archive' err && [ ! -e l7.ptx ]"
printf "$hdr"'.visible .func f()\n{\nbogus;\n}\n' >f.ptx && ar rc libs/libsyn.a f.ptx
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lsyn -o l8.ptx 2>err; rc=$?
check "an error in a member names archive(member)" "[ $rc = 1 ] && grep -q '^libs/libsyn.a(f.ptx):6:1: error' err"
# a member that parses but uses what nothing declares: once, and the run stops
printf "$hdr"'.visible .func f()\n{\nmov.u32 %%r1, 1;\nret;\n}\n' >f.ptx && ar rc libs/libund.a f.ptx
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lund -o l9.ptx 2>err; rc=$?
check "a member naming what nothing declares" "[ $rc = 1 ] && [ \"\$(cat err)\" = \"libs/libund.a(f.ptx):6:1: error: '%r1' is used but nothing declares it\" ] && [ ! -e l9.ptx ]"
cp libs/libfg.a libs/libtail.a && printf 'junk\n' >>libs/libtail.a
"$ptxlink" -arch=sm_80 main.ptx -Llibs -ltail -o l10.ptx 2>err; rc=$?
check "bytes after an archive's last member" "[ $rc = 1 ] && grep -q 'libs/libtail.a: error: malformed ar archive (5 bytes after the last member)' err && [ ! -e l10.ptx ]"
# members get the inputs' "what is this file" check; archives of objects are nvlink's
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\1\0\76\0' >host.o && ar rc libs/libobj.a host.o 2>/dev/null
mkdir -p devrt && cp libs/libobj.a devrt/libcudadevrt.a
printf 'BC\300\336' >m.bc && ar rc libs/libbc.a m.bc 2>/dev/null
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lobj -o obj1.ptx 2>err; rc=$?
check "an archive of objects, without --ptxas" "[ $rc = 1 ] && [ \"\$(cat err)\" = \"libs/libobj.a: error: an archive of cubins or host objects (libs/libobj.a(host.o)), not of PTX: nvlink links it, as 'ptxlink --ptxas' does\" ] && [ ! -e obj1.ptx ]"
"$ptxlink" -arch=sm_80 main.ptx -Llibs -lbc -o obj2.ptx 2>err; rc=$?
check "a bitcode member" "[ $rc = 1 ] && [ \"\$(cat err)\" = \"libs/libbc.a(m.bc): error: LLVM bitcode, not PTX: 'llc -march=nvptx64' makes PTX of it\" ]"
"$ptxlink" -arch=sm_80 main.ptx -Llibs -Ldevrt -lfg -lcudadevrt -o obj3.ptx 2>err; rc=$?
check "-lcudadevrt without --ptxas: not needed" "[ $rc = 0 ] && grep -q \"devrt/libcudadevrt.a: warning: not needed for PTX: the device runtime's names stay .extern for nvlink\" err && [ -s obj3.ptx ]"
"$ptxlink" -arch=sm_80 main.ptx -L '' -lfg -o l11.ptx 2>err; rc=$?
check "-L '' is refused, not the root" "[ $rc = 2 ] && grep -q \"'-L' needs a directory name\" err && [ ! -e l11.ptx ]"
mkdir -p libs/fifo && cp libs/g.ptx libs/fifo/ && mkfifo libs/fifo/f.ptx
timeout 10 "$ptxlink" -arch=sm_80 main.ptx -Llibs -lfifo -o l12.ptx 2>err; rc=$?
check "a FIFO in a directory library is refused, not read" "[ $rc = 1 ] && grep -q 'libs/fifo/f.ptx: error: not a regular file (in a directory library)' err && [ ! -e l12.ptx ]"
"$ptxlink" -arch=sm_80 main.ptx -o l9.ptx 2>err; rc=$?
check "without the library, f is undefined" "[ $rc = 1 ] && grep -q \"undefined reference to 'f'\" err"

# --keep is ptxlink's own: only --keep=SYM (a bare --keep took -arch=sm_80 as the name)
"$ptxlink" --keep -arch=sm_80 ok.ptx -o k1.ptx 2>err; rc=$?
check "--keep without =SYM" "[ $rc = 2 ] && grep -q \"'--keep' needs its value after '='\" err && [ ! -e k1.ptx ]"
"$ptxlink" --keep=k -arch=sm_80 ok.ptx -o k2.ptx 2>err; rc=$?
check "--keep without --internalize warns" "[ $rc = 0 ] && grep -q 'warning: --keep and --keep-file do nothing without --internalize' err"
"$ptxlink" --keep=k --internalize -arch=sm_80 ok.ptx -o k3.ptx 2>err; rc=$?
check "--keep with --internalize: no warning" "[ $rc = 0 ] && [ ! -s err ]"
for v in archmax archmin 32; do
	"$ptxlink" -maxrregcount=$v -arch=sm_80 ok.ptx -o /dev/null 2>err; rc=$?
	check "-maxrregcount=$v, as ptxas takes it" "[ $rc = 0 ] && ! grep -q error err"
done
"$ptxlink" -maxrregcount=archfoo -arch=sm_80 ok.ptx -o /dev/null 2>err; rc=$?
check "-maxrregcount=archfoo" "[ $rc = 2 ] && grep -q 'from 1 to 255, archmax or archmin' err"
# response files quoted as gcc reads @file: '...', "...", backslashes
cp ok.ptx 'my ok.ptx'
printf '%s\n' "-arch=sm_80 'my ok.ptx' -o q\\ 1.ptx" >q.rsp
printf '%s\n' "-arch=sm_80 \"my ok\".ptx -o 'q'\\''2.ptx'" >q2.rsp
"$ptxlink" -arch=sm_80 'my ok.ptx' -o qref.ptx
"$ptxlink" @q.rsp && "$ptxlink" -optf q2.rsp
check "@file: single quotes and backslashes" "cmp -s 'q 1.ptx' qref.ptx && cmp -s \"q'2.ptx\" qref.ptx"

# -v lists every input and where its names come from, without -l too
"$ptxlink" -v -arch=sm_80 ok.ptx -o /dev/null 2>err
check "-v without -l lists the inputs" "grep -q '^ptxlink: input ok.ptx: 1 names defined' err"

# --keep-file: a name of any length is one name (4,095 bytes was a line's end)
long=$(head -c 5000 /dev/zero | tr '\0' v) prefix=$(head -c 4095 /dev/zero | tr '\0' v)
printf "$hdr"'.visible .global .u32 %s;\n.visible .global .u32 %s;\n.visible .entry k()\n{\nret;\n}\n' "$long" "$prefix" >long.ptx
echo "$long" >long.keep
"$ptxlink" -arch=sm_80 --internalize --keep-file=long.keep long.ptx -o long.out.ptx 2>err; rc=$?
check "--keep-file: a 5,000-byte name is kept, its prefix is not" "[ $rc = 0 ] && grep -qx \".visible .global .u32	$long;\" long.out.ptx && ! grep -q \"[^v]$prefix;\" long.out.ptx"

# Inputs as users give them: errors name the path given; a file that is
# not PTX gets one error that says what it is; a file given twice is an
# error (nvlink: every symbol defined twice)
mkdir -p sub
printf "$hdr"'.entry k()\n{\n\tbogus;\n}\n' >bad.ptx
"$ptxlink" ./sub/../bad.ptx -o x.ptx 2>err; rc=$?
check "an error names the path as given" "[ $rc = 1 ] && grep -q '^./sub/../bad.ptx:6:2: error' err"
if command -v ptxas >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ptxas ]; then
	PATH=/usr/local/cuda/bin:$PATH ptxas -arch=sm_80 -c ok.ptx -o ok.cubin
	for f in ok.cubin ok.o; do
		cp ok.cubin $f 2>/dev/null
		"$ptxlink" ok.ptx $f -o x.ptx 2>err; rc=$?
		check "a cubin ($f) is named as such, once" "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q '^$f: error: a cubin (CUDA ELF), not PTX: link cubins with nvlink' err && [ ! -e x.ptx ]"
	done
fi
cp "$(command -v sh)" host.ptx
"$ptxlink" host.ptx -o x.ptx 2>err; rc=$?
check "a host ELF file" "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q '^host.ptx: error: an ELF file (host code), not PTX' err"
echo '__global__ void k() {}' >k.cu; cp k.cu k.cpp; echo x >k.o
for f in k.cu k.cpp k.o; do
	"$ptxlink" $f -o x.ptx 2>err; rc=$?
	check "$f is named as such" "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q '^$f: error: an\\? [a-z]* file, not PTX' err"
done
printf 'BC\300\336rest' >k.bc
"$ptxlink" k.bc -o x.ptx 2>err; rc=$?
check "LLVM bitcode" "[ $rc = 1 ] && grep -q 'k.bc: error: LLVM bitcode, not PTX' err"
"$ptxlink" -arch=sm_80 ok.ptx ./ok.ptx -o x.ptx 2>err; rc=$?
check "a file given twice" "[ $rc = 1 ] && [ \$(wc -l <err) = 1 ] && grep -q \"^./ok.ptx: error: given twice (first as 'ok.ptx')\" err && [ ! -e x.ptx ]"
"$ptxlink" ok.cu -o x.ptx 2>err; rc=$?
check "a missing .cu: cannot open" "[ $rc = 1 ] && grep -q 'ok.cu: error: cannot open' err"

# -v says what was done; --time times each phase
"$ptxlink" -v -arch=sm_80 main.ptx -Llibs -lfg -o v.ptx 2>err; rc=$?
check "-v: inputs and where their names resolve" "[ $rc = 0 ] && grep -q \"^ptxlink: input main.ptx: 1 names defined; uses 'f' from libs/libfg.a(f.ptx)\" err && grep -q \"^ptxlink: input libs/libfg.a(f.ptx): 1 names defined; uses 'g' from libs/libfg.a(g.ptx)\" err"
check "-v: each stage's counts, the time" "grep -q '^devirt: ' err && grep -q '^globalopt: ' err && grep -q '^ptxlink: done in [0-9.]* ms' err"
"$ptxlink" --verify --time -arch=sm_80 main.ptx -Llibs -lfg -o v.ptx 2>err; rc=$?
phases=$(sed -n 's/^ptxlink: time: \([a-z-]*\) *[0-9.]* ms$/\1/p' err | tr '\n' ' ')
check "--time: parse, link, each stage, print ($phases)" "[ $rc = 0 ] && [ '$phases' = 'parse link devirt reroll dce unrecurse inline printf globalopt ipo fold locals depot dce-late addrprep print ' ]"
# --verify checks after each stage (in its time); without it (a release build's default)
# the output is checked once, after the stages
"$ptxlink" --no-verify --time -arch=sm_80 main.ptx -Llibs -lfg -o v.ptx 2>err; rc=$?
phases=$(sed -n 's/^ptxlink: time: \([a-z-]*\) *[0-9.]* ms$/\1/p' err | tr '\n' ' ')
check "--no-verify --time: the output check ($phases)" "[ $rc = 0 ] && [ '$phases' = 'parse link devirt reroll dce unrecurse inline printf globalopt ipo fold locals depot dce-late addrprep check print ' ]"
"$ptxlink" --no-verify --no-check-output --time -arch=sm_80 main.ptx -Llibs -lfg -o v.ptx 2>err; rc=$?
phases=$(sed -n 's/^ptxlink: time: \([a-z-]*\) *[0-9.]* ms$/\1/p' err | tr '\n' ' ')
check "--no-check-output: none ($phases)" "[ $rc = 0 ] && [ '$phases' = 'parse link devirt reroll dce unrecurse inline printf globalopt ipo fold locals depot dce-late addrprep print ' ]"

# nvlink's and ptxas's other options: passed to ptxas, ignored with a
# warning, or refused, each saying why
for a in "-fmad=false" "-Ofc max" "--Ofast-compile=max" "-Xptxas -v" "-warn-spills" "-suppress-stack-size-warning"; do
	"$ptxlink" $a -arch=sm_80 ok.ptx -o a.ptx 2>err; rc=$?
	check "'$a' without --ptxas: a warning" "[ $rc = 0 ] && cmp -s a.ptx ref.ptx && grep -q \"warning: '${a%% *}' ignored: a ptxas option, and without --ptxas no ptxas runs\" err"
done
for a in "-cpu-arch X86_64" "--cpu-arch=X86_64" -emit-ptx -use-host-info "-ghls lcs-aug" -suppress-arch-warning; do
	"$ptxlink" $a -arch=sm_80 ok.ptx -o a.ptx 2>err; rc=$?
	check "'$a' ignored with a warning" "[ $rc = 0 ] && cmp -s a.ptx ref.ptx && grep -q \"^ptxlink: warning: '${a%% *}' ignored: \" err"
	"$ptxlink" -w $a -arch=sm_80 ok.ptx -o a.ptx 2>err; rc=$?
	check "'$a' with -w: silent" "[ $rc = 0 ] && [ ! -s err ]"
done
# nvcc's, on CMake's device-link line: accepted without a word
for a in "-Xcompiler=-fPIC" "-Xcompiler -O1,-g" -shared -forward-unknown-to-host-compiler \
	-Wno-deprecated-gpu-targets; do
	"$ptxlink" $a -arch=sm_80 ok.ptx -o a.ptx 2>err; rc=$?
	check "nvcc's '$a' accepted" "[ $rc = 0 ] && cmp -s a.ptx ref.ptx && [ ! -s err ]"
done
for a in -c -r -dlto -lto "-Xnvvm x" "-kernels-used k" "-time t.csv" "-e k" -report-arch; do
	rm -f x.ptx; "$ptxlink" $a -arch=sm_80 ok.ptx -o x.ptx 2>err; rc=$?
	check "'$a' refused, saying why" "[ $rc = 2 ] && [ ! -e x.ptx ] && grep -q \"^ptxlink: error: '${a%% *}': [a-zA-Z']\" err"
done

finish cli-options
