#!/usr/bin/env bash
# The ptxlink command line: stdin/stdout, -o, --version/--help, exit
# codes, and that a failed run never leaves an output file behind.
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # name, condition (as a command)
	if eval "$2"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $1"; fi
}
cat >"$work/ok.ptx" <<'PTX'
.version 8.5
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	ret;
}
PTX
printf '.version 8.5\n.target sm_80\n.address_size 64\n.entry k()\n{\n\tadd.s32 %%r1;\n}\n' >"$work/bad.ptx"

"$ptxlink" "$work/ok.ptx" -o "$work/out.ptx"; rc=$?
check "good input exits 0" "[ $rc = 0 ] && [ -s '$work/out.ptx' ]"
check "-o is atomic: no temporary left" "[ -z \"\$(ls '$work' | grep tmp)\" ]"
"$ptxlink" - <"$work/ok.ptx" >"$work/stdout.ptx"; rc=$?
check "stdin to stdout" "[ $rc = 0 ] && cmp -s '$work/stdout.ptx' '$work/out.ptx'"
"$ptxlink" "$work/ok.ptx" -o - >"$work/dash.ptx"
check "-o - writes stdout" "cmp -s '$work/dash.ptx' '$work/out.ptx'"
"$ptxlink" -o"$work/glued.ptx" "$work/ok.ptx"
check "-oFILE form" "cmp -s '$work/glued.ptx' '$work/out.ptx'"
printf '%s -o %s\n' "$work/ok.ptx" "$work/optf.ptx" >"$work/args.rsp"
(cd "$work" && "$ptxlink" -optf args.rsp) && (cd "$work" && "$ptxlink" --options-file args.rsp)
check "-optf FILE reads options, is not -o ptf" "cmp -s '$work/optf.ptx' '$work/out.ptx' && [ ! -e '$work/ptf' ]"

"$ptxlink" "$work/bad.ptx" -o "$work/bad.out.ptx" 2>"$work/err"; rc=$?
check "bad input exits 1" "[ $rc = 1 ]"
check "bad input leaves no output" "[ ! -e '$work/bad.out.ptx' ] && [ -z \"\$(ls '$work' | grep bad.out)\" ]"
check "bad input diagnostic" "grep -q \"bad.ptx:6:2: error: 'add.s32' takes 3 operands, not 1\" '$work/err'"
cp "$work/out.ptx" "$work/keep.ptx"
"$ptxlink" "$work/bad.ptx" -o "$work/keep.ptx" 2>/dev/null
check "failed run keeps an existing output untouched" "cmp -s '$work/keep.ptx' '$work/out.ptx'"

# Output as a compiler writes it: a regular file atomically with the
# umask's mode (an existing one keeps its mode); anything else in place.
(umask 027; "$ptxlink" "$work/ok.ptx" -o "$work/new.ptx")
check "a new output gets the umask's mode" "[ \"\$(stat -c %a '$work/new.ptx')\" = 640 ]"
chmod 604 "$work/new.ptx"; "$ptxlink" "$work/ok.ptx" -o "$work/new.ptx"
check "an existing output keeps its mode" "[ \"\$(stat -c %a '$work/new.ptx')\" = 604 ]"
echo old >"$work/target"; ln -s target "$work/link.ptx"
"$ptxlink" "$work/ok.ptx" -o "$work/link.ptx"; rc=$?
check "a symlink is followed, not replaced" "[ $rc = 0 ] && [ -L '$work/link.ptx' ] && cmp -s '$work/target' '$work/out.ptx'"
mkfifo "$work/fifo"; cat "$work/fifo" >"$work/fromfifo" & reader=$!
"$ptxlink" "$work/ok.ptx" -o "$work/fifo"; rc=$?
[ $rc = 0 ] || : >"$work/fifo"  # never opened: release the reader
wait $reader
check "a FIFO is written in place" "[ $rc = 0 ] && [ -p '$work/fifo' ] && cmp -s '$work/fromfifo' '$work/out.ptx'"
if [ -c /dev/full ]; then
	"$ptxlink" "$work/ok.ptx" -o /dev/full 2>"$work/err"; rc=$?
	check "-o /dev/full fails" "[ $rc = 1 ] && [ -c /dev/full ] && grep -q \"cannot write '/dev/full': No space left on device\" '$work/err'"
	"$ptxlink" "$work/ok.ptx" >/dev/full 2>"$work/err"; rc=$?
	check "a full standard output fails with a message" "[ $rc = 1 ] && grep -q 'cannot write standard output: No space left on device' '$work/err'"
fi

"$ptxlink" <(cat "$work/ok.ptx") -o "$work/piped.ptx" 2>"$work/err"; rc=$?
check "an input from a pipe is read whole (<(cmd))" "[ $rc = 0 ] && cmp -s '$work/piped.ptx' '$work/out.ptx'"
"$ptxlink" "$work/missing.ptx" -o "$work/m.ptx" 2>"$work/err"; rc=$?
check "missing input" "[ $rc = 1 ] && grep -q 'missing.ptx: error: cannot open: No such file or directory' '$work/err' && [ ! -e '$work/m.ptx' ]"
"$ptxlink" "$work/ok.ptx" -o "$work/nodir/x.ptx" 2>"$work/err"; rc=$?
check "unwritable output" "[ $rc = 1 ] && grep -q 'cannot create' '$work/err'"
"$ptxlink" --bogus 2>"$work/err"; rc=$?
check "unknown option exits 2" "[ $rc = 2 ] && grep -q \"unknown option '--bogus'\" '$work/err'"
"$ptxlink" 2>"$work/err"; rc=$?
check "no input exits 2" "[ $rc = 2 ] && grep -q 'no input files' '$work/err'"
echo "@$work/self.rsp" >"$work/self.rsp"
"$ptxlink" "@$work/self.rsp" 2>"$work/err"; rc=$?
check "a self-including response file names the depth limit" "[ $rc = 2 ] && grep -q \"response files nested deeper than 8 (does '$work/self.rsp' include itself?)\" '$work/err'"
# -optf inside a response file counts toward the same depth: a file that
# names itself by -optf (or --options-file=) stops at it, no stack overflow
echo "-optf $work/optself.rsp" >"$work/optself.rsp"
echo "--options-file=$work/optself2.rsp" >"$work/optself2.rsp"
for a in -optf @; do
	[ $a = -optf ] && set -- -optf "$work/optself.rsp" || set -- "@$work/optself2.rsp"
	"$ptxlink" "$@" "$work/ok.ptx" 2>"$work/err"; rc=$?
	check "a response file naming itself by -optf, given by $a, names the depth limit" "[ $rc = 2 ] && grep -q 'response files nested deeper than 8' '$work/err'"
done
# files that each name the next 20 times, 7 deep, would expand 20^7 times
for i in 0 1 2 3 4 5 6; do yes "@$work/fan$((i + 1)).rsp" | head -n 20 >"$work/fan$i.rsp"; done
echo -w >"$work/fan7.rsp"
timeout 10 "$ptxlink" "@$work/fan0.rsp" "$work/ok.ptx" -o "$work/fan.ptx" 2>"$work/err"; rc=$?
check "response files naming each other 20 times over stop at a limit" "[ $rc = 2 ] && grep -q \"response file '$work/fan[0-7].rsp': the response files name more than 10,000 response files\" '$work/err' && [ ! -e '$work/fan.ptx' ]"
yes "$work/ok.ptx" | head -n 1000001 >"$work/words.rsp"
"$ptxlink" "@$work/words.rsp" 2>"$work/err"; rc=$?
check "a response file of over 1,000,000 words" "[ $rc = 2 ] && grep -q \"response file '$work/words.rsp': the response files expand to more than 1,000,000 words\" '$work/err'"
printf '%s -o %s\0x.ptx\n' "$work/ok.ptx" "$work/nulword.ptx" >"$work/nul.rsp"
"$ptxlink" "@$work/nul.rsp" 2>"$work/err"; rc=$?
check "a NUL in a response file's word is an error" "[ $rc = 2 ] && grep -q \"response file '$work/nul.rsp': a NUL byte in a word\" '$work/err' && [ ! -e '$work/nulword.ptx' ]"
cp "$work/ok.ptx" "$work/in.ptx"; ln -s in.ptx "$work/in-link.ptx"
for out in in.ptx ./in.ptx in-link.ptx; do
	(cd "$work" && "$ptxlink" -o $out in.ptx) 2>"$work/err"; rc=$?
	check "-o $out in.ptx: an output that is an input is refused" "[ $rc = 2 ] && grep -q \"the output '$out' is the input 'in.ptx'\" '$work/err' && cmp -s '$work/in.ptx' '$work/ok.ptx'"
done
mkdir "$work/dir.rsp"
"$ptxlink" "@$work/dir.rsp" 2>"$work/err"; rc=$?
check "a response file that is a directory" "[ $rc = 2 ] && grep -q \"cannot read response file '$work/dir.rsp': Is a directory\" '$work/err'"
"$ptxlink" --print-after=bogus "$work/ok.ptx" 2>"$work/err"; rc=$?
check "--print-after names the stages" "[ $rc = 2 ] && grep -q 'print-after=bogus: no such stage (the stages are devirt, ' '$work/err'"
for n in 99999999999 3x 0 -1 ''; do
	"$ptxlink" --devirt-funnel-max=$n "$work/ok.ptx" 2>"$work/err"; rc=$?
	check "--devirt-funnel-max=$n is refused" "[ $rc = 2 ] && grep -q \"'--devirt-funnel-max=$n' needs a positive number\" '$work/err'"
done
for a in sm_99999999999 sm_4294967376 sm_+80 compute_80 sm_999 sm_70 sm_90f sm_80a; do
	"$ptxlink" -arch=$a "$work/ok.ptx" -o "$work/a.ptx" 2>"$work/err"; rc=$?
	check "-arch=$a is refused" "[ $rc = 2 ] && grep -q -- '-arch=$a is not an architecture ptxas accepts (sm_75, sm_80, ' '$work/err' && [ ! -e '$work/a.ptx' ]"
done
# Input ptxas accepts: Ctrl-Z as white space, .5, .file without a size,
# identifiers of any length (read in linear time: 4 MB in well under 10 s).
{ printf '.version 8.5\032\n.target sm_80\n.address_size 64\n.file 1 "a.cu", 1700000000\n'
  printf '.global .b32 '; head -c 4000000 /dev/zero | tr '\0' x; printf ';\n.global .f32 y;\n'
  printf '.visible .entry k()\n{\n\t.reg .f32 %%f<2>;\n\tmov.f32 %%f1, .5;\n\tst.global.f32 [y], %%f1;\n\tret;\n}\n'; } >"$work/odd.ptx"
timeout 10 "$ptxlink" "$work/odd.ptx" -o "$work/odd.out.ptx" 2>"$work/err"; rc=$?
kept=$(grep -c -e '%f1, .5;' -e '"a.cu", 1700000000$' -e '^\.global \.b32	xxxxxxxx*;' "$work/odd.out.ptx" 2>/dev/null)
check "inputs ptxas accepts" "[ $rc = 0 ] && [ '$kept' = 3 ] && [ $(wc -c <"$work/odd.out.ptx") -gt 4000000 ]"
# No fixed limits ptxas lacks: 100 nested scopes (the printf stage walks
# them), 100 distinct .section names (the linker merges them by name).
hdr='.version 8.5\n.target sm_80\n.address_size 64\n'
{ printf "$hdr"'.extern .func (.param .b32 r) printf(.param .b64 a, .param .b64 b);\n.visible .func f()\n{\n'
  for i in $(seq 100); do printf '{\n'; done; printf 'ret;\n'; for i in $(seq 100); do printf '}\n'; done; printf '}\n'
  for i in $(seq 100); do printf '.section .sec%d\n{\n.b8 1\n}\n' $i; done; } >"$work/deep.ptx"
printf "$hdr"'.extern .func f();\n.visible .entry k()\n{\ncall f;\nret;\n}\n' >"$work/callf.ptx"
"$ptxlink" "$work/deep.ptx" "$work/callf.ptx" -o "$work/deep.out.ptx" 2>"$work/err"; rc=$?
check "100 nested scopes and 100 sections" "[ $rc = 0 ] && [ \$(grep -c '^\.section' '$work/deep.out.ptx') = 100 ]"
# Scanning is linear and stops on input that is no PTX text: a NUL ends
# reading (ptxas reads it as the end of the file), endless input stops.
head -c 100000 /dev/zero >"$work/nul.ptx"
start=$(date +%s%N)
"$ptxlink" "$work/nul.ptx" -o "$work/nul.out.ptx" 2>"$work/err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "100,000 NULs: one error in under 1 s ($ms ms)" "[ $rc = 1 ] && [ $ms -lt 1000 ] && [ \$(wc -l <'$work/err') = 1 ] && grep -q 'nul.ptx:1:1: error: NUL byte in program' '$work/err'"
{ printf "$hdr// "; head -c 100000 /dev/zero; } >"$work/nulcomment.ptx"
"$ptxlink" "$work/nulcomment.ptx" -o "$work/nul.out.ptx" 2>"$work/err"; rc=$?
check "a NUL in a comment" "[ $rc = 1 ] && grep -q 'nulcomment.ptx:4:4: error: NUL byte in program' '$work/err'"
timeout 10 "$ptxlink" /dev/zero -o "$work/zero.out.ptx" 2>"$work/err"; rc=$?
check "/dev/zero stops with a message" "[ $rc = 1 ] && grep -q '^/dev/zero:1:1: error: NUL byte in program' '$work/err' && [ ! -e '$work/zero.out.ptx' ]"
{ printf "$hdr.entry k()\n{\n"; yes '1;'; } | timeout 10 "$ptxlink" - -o "$work/junk.out.ptx" 2>"$work/err"; rc=$?
check "too many errors stop reading endless input" "[ $rc = 1 ] && [ \$(wc -l <'$work/err') = 21 ] && grep -q 'too many errors, giving up' '$work/err'"
# A chain of 200,000 operators (ptxas takes it) is as deep as it is long:
# no walk recurses down it.  Printed, linked, re-read; no temporary left.
chain=$(yes 1 | head -n 200000 | paste -sd+)
minus=$(printf %s "$chain" | tr + -)	# not ${chain//+/-}: bash takes minutes on it
{ printf "$hdr"'.visible .global .u32 x = %s;\n.visible .entry k()\n{\n.reg .u32 %%r<3>;\n' "$chain"
  printf 'add.u32 %%r1, %%r2, %s;\nst.global.u32 [x], %%r1;\nld.global.u32 %%r1, [x+%s];\nst.global.u32 [x], %%r1;\nret;\n}\n' "$minus" "$chain"; } >"$work/chain.ptx"
printf "$hdr"'.extern .global .u32 x;\n.visible .entry k2()\n{\n.reg .u32 %%r1;\nld.global.u32 %%r1, [x+%s];\nst.global.u32 [x], %%r1;\nret;\n}\n' "$chain" >"$work/chain2.ptx"
"$ptxlink" "$work/chain.ptx" "$work/chain2.ptx" -o "$work/chain.out.ptx" 2>"$work/err"; rc=$?
"$ptxlink" "$work/chain.out.ptx" -o "$work/chain.again.ptx" 2>>"$work/err"; rc2=$?
check "a 200,000-term chain links and prints" "[ $rc = 0 ] && [ $rc2 = 0 ] && [ \$(tr -cd + <'$work/chain.out.ptx' | wc -c) = 599999 ] && cmp -s '$work/chain.out.ptx' '$work/chain.again.ptx' && [ -z \"\$(ls '$work' | grep 'chain.*tmp')\" ]"
# ... and devirtualization walks it too: a table whose initializer holds the
# chain, an indirect call, the table hoisted and the vtable scan run (the
# direct call left, not inlined)
{ printf "$hdr"'.global .u32 g;\n.func (.param .b32 r) f(.param .b32 a)\n{\nst.global.u32 [g], 1;\nret;\n}\n'
  printf '.global .u64 t[2] = {f, %s};\n' "$chain"
  printf '.visible .entry k()\n{\n.reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\nld.global.u64 %%rd1, [t];\n'
  printf '{\n.param .b32 a;\n.param .b32 r;\nmov.u32 %%r1, 1;\nst.param.b32 [a], %%r1;\n'
  printf 'p: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (r), %%rd1, (a), p;\n}\nret;\n}\n'; } >"$work/chain3.ptx"
"$ptxlink" -arch=sm_80 --inline=never "$work/chain3.ptx" -o "$work/chain3.out.ptx" 2>"$work/err"; rc=$?
check "a 200,000-term chain in a function table goes through devirtualization" "[ $rc = 0 ] && grep -q 'call.*f,' '$work/chain3.out.ptx'"
# A 200,000-instruction function (if-then diamonds) with one indirect
# call: dataflow memory follows live ranges, not blocks x definitions
# (dense bitsets took 8.9 GB and 61 s here).  Under 1 GB of address space
# unless the build is sanitized, whose shadow memory needs more.
awk 'BEGIN {
	n = 200000
	print ".version 7.0\n.target sm_70\n.address_size 64"
	print ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<2>;\nld.param.u32 %r1, [a];\nst.param.b32 [r], %r1;\nret;\n}"
	printf ".visible .entry k(.param .u64 p)\n{\n.reg .pred %%p<%d>;\n.reg .b32 %%r<%d>;\n.reg .b64 %%rd<4>;\n", n / 10 + 2, n + 2
	print "ld.param.u64 %rd1, [p];\nld.global.u32 %r0, [%rd1];\nmov.u64 %rd2, f;"
	for (i = 1; i < n; i++)
		if (i % 10 == 0)
			printf "setp.eq.s32 %%p%d, %%r%d, 7;\nmov.u32 %%r%d, %%r%d;\n@%%p%d bra L%d;\nadd.s32 %%r%d, %%r%d, 3;\nL%d:\n", i / 10, i - 1, i, i - 1, i / 10, i, i, i, i
		else
			printf "add.s32 %%r%d, %%r%d, %d;\n", i, i - 1, i
	printf "{\n.param .b32 a0;\nst.param.b32 [a0], %%r%d;\n.param .b32 r0;\n", n - 1
	print "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (r0), %rd2, (a0), proto;"
	printf "ld.param.b32 %%r%d, [r0];\n}\nst.global.u32 [%%rd1], %%r%d;\nret;\n}\n", n, n
}' >"$work/long.ptx"
if grep -q __asan_init "$ptxlink"; then limit=unlimited; else limit=1048576; fi
(ulimit -v $limit; "$ptxlink" --inline=never "$work/long.ptx" -o "$work/long.out.ptx" 2>"$work/err"); rc=$?
check "a 200,000-instruction function with an indirect call, in 1 GB" "[ $rc = 0 ] && grep -q 'call.*(r0), f, (a0);' '$work/long.out.ptx'"
check "--version" "\"$ptxlink\" --version | grep -q '^ptxlink [0-9]'"
check "--help" "\"$ptxlink\" --help | grep -q '^usage: ptxlink'"
"$ptxlink" "$work/ok.ptx" >"$work/o1.ptx"; "$ptxlink" "$work/ok.ptx" >"$work/o2.ptx"
check "deterministic output" "cmp -s '$work/o1.ptx' '$work/o2.ptx'"

# an output in a missing directory: the message names it, not its temporary
"$ptxlink" "$work/ok.ptx" -o "$work/nodir/a.ptx" 2>"$work/err"; rc=$?
check "-o nodir/a.ptx names nodir/a.ptx" "[ $rc = 1 ] && [ \"\$(cat '$work/err')\" = \"ptxlink: error: cannot create '$work/nodir/a.ptx': No such file or directory\" ]"

# A name nothing declares is the input's fault, refused where it is read
# (ir_check_input), --allow-undefined or not: that is for symbols declared
# and defined nowhere.  Inlining such a callee once made a new violation
# and --verify stopped with an internal error (found by the stages
# fuzzer); ptxas says "Unknown symbol".
cat >"$work/undecl.ptx" <<'END'
.version 8.0
.target sm_80
.address_size 64
.func (.param .b64 r) f()
{
.reg .b64 %rd<2>;
mov.u64 %rd1, nosuch;
st.param.b64 [r], %rd1;
ret;
}
.visible .entry k(.param .u64 p)
{
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [p];
{
.param .b64 r0;
call.uni (r0), f, ();
ld.param.b64 %rd2, [r0];
}
st.global.u64 [%rd1], %rd2;
ret;
}
END
"$ptxlink" --verify --allow-undefined --inline=always -Rpass-missed=inline "$work/undecl.ptx" -o "$work/undecl.out.ptx" 2>"$work/err"; rc=$?
check "a name nothing declares is refused, --allow-undefined or not" "[ $rc = 1 ] && grep -q \"undecl.ptx:7:1: error: 'nosuch' is used but nothing declares it\" '$work/err' && [ ! -e '$work/undecl.out.ptx' ]"

# -gencode code= with an empty architecture is refused as nvcc refuses it
# ("Unsupported gpu architecture ''"); code=sm_80, (a trailing comma) nvcc
# takes, and so does ptxlink.  No ptxas needed: options are checked first.
for c in '[]' '[sm_80,]' ',sm_80' ','; do
	"$ptxlink" -gencode "arch=compute_80,code=$c" "$work/ok.ptx" -o "$work/gen.ptx" 2>"$work/err"; rc=$?
	check "-gencode code=$c is refused" "[ $rc = 2 ] && grep -qF \"ptxlink: error: -gencode 'arch=compute_80,code=$c': code= names an empty architecture (nvcc: \\\"Unsupported gpu architecture ''\\\"); list sm_XX or compute_XX\" '$work/err' && [ ! -e '$work/gen.ptx' ]"
done
"$ptxlink" -gencode "arch=compute_80,code=sm_80," "$work/ok.ptx" -o "$work/gen.ptx"; rc=$?
check "-gencode code=sm_80, is taken" "[ $rc = 0 ] && grep -q '^.target sm_80' '$work/gen.ptx'"

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
