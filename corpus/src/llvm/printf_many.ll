; Several printf calls in one kernel: one with 14 arguments after the format
; (mixed sizes, so the buffer has padding; float and i8 passed raw), one with
; no argument (a null buffer), one on a conditional path, and one whose result
; is used.  They share one .local buffer, sized to the largest.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt_many = private unnamed_addr addrspace(1) constant [57 x i8] c"many: %d %lld %d %f %d %s %d %f %c %llu %u %.1f %x %hhd\0A\00", align 1
@fmt_none = private unnamed_addr addrspace(1) constant [21 x i8] c"no arguments at all\0A\00", align 1
@fmt_odd = private unnamed_addr addrspace(1) constant [19 x i8] c"odd thread %d: %f\0A\00", align 1
@fmt_ret = private unnamed_addr addrspace(1) constant [20 x i8] c"printf returned %d\0A\00", align 1
@word = private unnamed_addr addrspace(1) constant [5 x i8] c"word\00", align 1

declare i32 @printf(i8*, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @many_kernel(i32 %a, i64 %b, double %x, float %y, i32* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f1.a = getelementptr inbounds [57 x i8], [57 x i8] addrspace(1)* @fmt_many, i64 0, i64 0
  %f1 = addrspacecast i8 addrspace(1)* %f1.a to i8*
  %w.a = getelementptr inbounds [5 x i8], [5 x i8] addrspace(1)* @word, i64 0, i64 0
  %w = addrspacecast i8 addrspace(1)* %w.a to i8*
  %a1 = add i32 %a, 1
  %a2 = add i32 %a, 2
  %a3 = add i32 %a, 3
  %r1 = call i32 (i8*, ...) @printf(i8* %f1, i32 %a, i64 %b, i32 %a1, double %x, i32 %a2, i8* %w, i32 %a3, float %y, i32 65, i64 %b, i32 %tid, float %y, i32 255, i8 7)
  %f2.a = getelementptr inbounds [21 x i8], [21 x i8] addrspace(1)* @fmt_none, i64 0, i64 0
  %f2 = addrspacecast i8 addrspace(1)* %f2.a to i8*
  %r2 = call i32 (i8*, ...) @printf(i8* %f2)
  %odd = and i32 %tid, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %then, label %done
then:
  %f3.a = getelementptr inbounds [19 x i8], [19 x i8] addrspace(1)* @fmt_odd, i64 0, i64 0
  %f3 = addrspacecast i8 addrspace(1)* %f3.a to i8*
  %r3 = call i32 (i8*, ...) @printf(i8* %f3, i32 %tid, double %x)
  br label %done
done:
  %r = phi i32 [ %r3, %then ], [ %r2, %entry ]
  %f4.a = getelementptr inbounds [20 x i8], [20 x i8] addrspace(1)* @fmt_ret, i64 0, i64 0
  %f4 = addrspacecast i8 addrspace(1)* %f4.a to i8*
  %r4 = call i32 (i8*, ...) @printf(i8* %f4, i32 %r1)
  %slot = getelementptr inbounds i32, i32* %out, i32 %tid
  store i32 %r, i32* %slot
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32, i64, double, float, i32*)* @many_kernel, !"kernel", i32 1}
