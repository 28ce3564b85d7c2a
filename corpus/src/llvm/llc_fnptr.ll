; Hand-written NVPTX IR: a global table of function pointers (initialised with
; function addresses) and an indirect call through it => .callprototype in PTX.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal float @op_add(float %a, float %b) noinline {
  %r = fadd float %a, %b
  ret float %r
}
define internal float @op_mul(float %a, float %b) noinline {
  %r = fmul float %a, %b
  ret float %r
}
define float @op_max(float %a, float %b) noinline {
  %c = fcmp ogt float %a, %b
  %r = select i1 %c, float %a, float %b
  ret float %r
}

@ops = addrspace(1) global [3 x float (float, float)*] [float (float, float)* @op_add, float (float, float)* @op_mul, float (float, float)* @op_max], align 8

define void @dispatch(float addrspace(1)* %data, i32 addrspace(1)* %sel, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %sp = getelementptr inbounds i32, i32 addrspace(1)* %sel, i64 %t64
  %s = load i32, i32 addrspace(1)* %sp, align 4
  %s3 = urem i32 %s, 3
  %s64 = zext i32 %s3 to i64
  %fpp = getelementptr inbounds [3 x float (float, float)*], [3 x float (float, float)*] addrspace(1)* @ops, i64 0, i64 %s64
  %fp = load float (float, float)*, float (float, float)* addrspace(1)* %fpp, align 8
  %dp = getelementptr inbounds float, float addrspace(1)* %data, i64 %t64
  %x = load float, float addrspace(1)* %dp, align 4
  %y = call float %fp(float %x, float 2.0)
  %z = call float @op_max(float %y, float 0.0)
  store float %z, float addrspace(1)* %dp, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, i32)* @dispatch, !"kernel", i32 1}
