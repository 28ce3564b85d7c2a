#!/bin/sh
# chain.sh chain|deep PTXLINK_RUN OUT: writes the module to OUT and runs
# its kernel from OUT's directory (so diagnostics name out.ptx); OUT is
# removed when the run fails.
what=$1 run=$2 out=$3
chain=$(yes 1 | head -n 200000 | paste -sd+)
case $what in
chain) init=$chain ;;
deep) init="$(yes '(' | head -n 200000 | tr -d '\n')1$(yes ')' | head -n 200000 | tr -d '\n')" ;;
esac
cat >"$out" <<END
.version 8.0
.target sm_80
.address_size 64

.visible .global .u32 x = $init;
.visible .global .u32 y[50001] = {1, 2, 3};

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;

	ld.param.u64 %rd1, [out];
	ld.global.u32 %r1, [x];
	st.global.u32 [%rd1], %r1;
	mov.u32 %r2, 7;
	st.global.u32 [y+$chain], %r2;
	ld.global.u32 %r3, [y+200000];
	st.global.u32 [%rd1+4], %r3;
	add.u32 %r3, 1, $(printf %s "$chain" | tr + -);
	st.global.u32 [%rd1+8], %r3;
	ret;
}
END
cd "$(dirname "$out")" || exit 2
"$run" "${out##*/}" k --arg buf:12 --dump-as s32
rc=$?
[ $rc = 0 ] || rm -f "$out"
exit $rc
