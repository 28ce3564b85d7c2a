; printf in device functions (.func, one internal returning printf's result,
; one visible taking an i16 passed raw as %d) and in the kernel that calls them.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt_report = private unnamed_addr addrspace(1) constant [27 x i8] c"report %s: id=%u value=%f\0A\00", align 1
@fmt_kernel = private unnamed_addr addrspace(1) constant [32 x i8] c"kernel: thread %d calls report\0A\00", align 1
@fmt_leaf = private unnamed_addr addrspace(1) constant [9 x i8] c"leaf %d\0A\00", align 1
@name = private unnamed_addr addrspace(1) constant [7 x i8] c"sensor\00", align 1

declare i32 @printf(i8*, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal i32 @report(i32 %id, float %v) noinline {
entry:
  %f1.a = getelementptr inbounds [27 x i8], [27 x i8] addrspace(1)* @fmt_report, i64 0, i64 0
  %f1 = addrspacecast i8 addrspace(1)* %f1.a to i8*
  %n.a = getelementptr inbounds [7 x i8], [7 x i8] addrspace(1)* @name, i64 0, i64 0
  %n = addrspacecast i8 addrspace(1)* %n.a to i8*
  %r = call i32 (i8*, ...) @printf(i8* %f1, i8* %n, i32 %id, float %v)
  ret i32 %r
}

define void @leaf(i16 %k) noinline {
entry:
  %f1.a = getelementptr inbounds [9 x i8], [9 x i8] addrspace(1)* @fmt_leaf, i64 0, i64 0
  %f1 = addrspacecast i8 addrspace(1)* %f1.a to i8*
  %r = call i32 (i8*, ...) @printf(i8* %f1, i16 %k)
  ret void
}

define void @device_kernel(float %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f1.a = getelementptr inbounds [32 x i8], [32 x i8] addrspace(1)* @fmt_kernel, i64 0, i64 0
  %f1 = addrspacecast i8 addrspace(1)* %f1.a to i8*
  %r1 = call i32 (i8*, ...) @printf(i8* %f1, i32 %tid)
  %r2 = call i32 @report(i32 %tid, float %v)
  call void @leaf(i16 12)
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float)* @device_kernel, !"kernel", i32 1}
