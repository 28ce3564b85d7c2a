; Hand-written NVPTX IR with vector types: <4 x float> loads/stores (ld.v4),
; <2 x half> arithmetic, <2 x i16>, shufflevector, insert/extractelement and a
; function returning a vector (.param .align 16 .b8 func_retval0[16]).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define <4 x float> @madd4(<4 x float> %a, <4 x float> %b, <4 x float> %c) noinline {
  %m = fmul <4 x float> %a, %b
  %r = fadd <4 x float> %m, %c
  %s = shufflevector <4 x float> %r, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  ret <4 x float> %s
}

define void @vec_kernel(<4 x float> addrspace(1)* %a, <4 x float> addrspace(1)* %b,
                        <2 x half> addrspace(1)* %h, <2 x i16> addrspace(1)* %s,
                        <2 x double> addrspace(1)* %d) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pa = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %a, i64 %t64
  %pb = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %b, i64 %t64
  %va = load <4 x float>, <4 x float> addrspace(1)* %pa, align 16
  %vb = load <4 x float>, <4 x float> addrspace(1)* %pb, align 16
  %vc = call <4 x float> @madd4(<4 x float> %va, <4 x float> %vb, <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>)
  %e0 = extractelement <4 x float> %vc, i32 0
  %vd = insertelement <4 x float> %vc, float 0.5, i32 2
  %ve = fadd <4 x float> %vd, %va
  %vf = insertelement <4 x float> %ve, float %e0, i32 3
  store <4 x float> %vf, <4 x float> addrspace(1)* %pa, align 16

  %ph = getelementptr inbounds <2 x half>, <2 x half> addrspace(1)* %h, i64 %t64
  %vh = load <2 x half>, <2 x half> addrspace(1)* %ph, align 4
  %vh2 = fmul <2 x half> %vh, <half 0xH3C00, half 0xH4000>
  %vh3 = fadd <2 x half> %vh2, %vh
  store <2 x half> %vh3, <2 x half> addrspace(1)* %ph, align 4

  %ps = getelementptr inbounds <2 x i16>, <2 x i16> addrspace(1)* %s, i64 %t64
  %vs = load <2 x i16>, <2 x i16> addrspace(1)* %ps, align 4
  %vs2 = add <2 x i16> %vs, <i16 1, i16 -1>
  %vs3 = shl <2 x i16> %vs2, <i16 2, i16 3>
  store <2 x i16> %vs3, <2 x i16> addrspace(1)* %ps, align 4

  %pd = getelementptr inbounds <2 x double>, <2 x double> addrspace(1)* %d, i64 %t64
  %vdd = load <2 x double>, <2 x double> addrspace(1)* %pd, align 16
  %sw = shufflevector <2 x double> %vdd, <2 x double> undef, <2 x i32> <i32 1, i32 0>
  %sum = fadd <2 x double> %vdd, %sw
  store <2 x double> %sum, <2 x double> addrspace(1)* %pd, align 16
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, <2 x half> addrspace(1)*, <2 x i16> addrspace(1)*, <2 x double> addrspace(1)*)* @vec_kernel, !"kernel", i32 1}
