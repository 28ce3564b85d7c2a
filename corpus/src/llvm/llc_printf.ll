; Hand-written NVPTX IR calling the variadic C `printf` directly (not
; vprintf). llc emits a call with the wrong number of parameters for the
; declaration, which ptxas rejects ("Call has wrong number of parameters").
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt = private unnamed_addr addrspace(1) constant [17 x i8] c"tid %d value %f\0A\00", align 1

declare i32 @printf(i8*, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @print_kernel(float addrspace(1)* %data) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds float, float addrspace(1)* %data, i64 %t64
  %v = load float, float addrspace(1)* %p, align 4
  %vd = fpext float %v to double
  %f = getelementptr inbounds [17 x i8], [17 x i8] addrspace(1)* @fmt, i64 0, i64 0
  %fg = addrspacecast i8 addrspace(1)* %f to i8*
  %r = call i32 (i8*, ...) @printf(i8* %fg, i32 %tid, double %vd)
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*)* @print_kernel, !"kernel", i32 1}
