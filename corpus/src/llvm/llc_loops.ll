; Hand-written NVPTX IR: nested loops with phis, a reduction, a select-based
; clamp and a loop-carried multi-value phi (Horner polynomial evaluation).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @matvec(float addrspace(1)* %m, float addrspace(1)* %v, float addrspace(1)* %out,
                    i32 %rows, i32 %cols) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %bid, %bdim
  %row = add i32 %mul, %tid
  %inrange = icmp slt i32 %row, %rows
  br i1 %inrange, label %outer.preheader, label %exit

outer.preheader:
  %rowoff = mul i32 %row, %cols
  %haswork = icmp sgt i32 %cols, 0
  br i1 %haswork, label %loop, label %store

loop:
  %j = phi i32 [ 0, %outer.preheader ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %outer.preheader ], [ %acc.next, %loop ]
  %idx = add i32 %rowoff, %j
  %idx64 = sext i32 %idx to i64
  %mp = getelementptr inbounds float, float addrspace(1)* %m, i64 %idx64
  %mv = load float, float addrspace(1)* %mp, align 4
  %j64 = sext i32 %j to i64
  %vp = getelementptr inbounds float, float addrspace(1)* %v, i64 %j64
  %vv = load float, float addrspace(1)* %vp, align 4
  %prod = fmul float %mv, %vv
  %acc.next = fadd float %acc, %prod
  %j.next = add nsw i32 %j, 1
  %done = icmp eq i32 %j.next, %cols
  br i1 %done, label %store, label %loop

store:
  %res = phi float [ 0.0, %outer.preheader ], [ %acc.next, %loop ]
  %neg = fcmp olt float %res, 0.0
  %clamped = select i1 %neg, float 0.0, float %res
  %row64 = sext i32 %row to i64
  %op = getelementptr inbounds float, float addrspace(1)* %out, i64 %row64
  store float %clamped, float addrspace(1)* %op, align 4
  br label %exit

exit:
  ret void
}

define float @horner(float addrspace(1)* %coef, i32 %n, float %x) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %end, label %body

body:
  %i = phi i32 [ %n, %entry ], [ %i.next, %body ]
  %r = phi float [ 0.0, %entry ], [ %r.next, %body ]
  %steps = phi i32 [ 0, %entry ], [ %steps.next, %body ]
  %i.next = add nsw i32 %i, -1
  %i64 = sext i32 %i.next to i64
  %cp = getelementptr inbounds float, float addrspace(1)* %coef, i64 %i64
  %c = load float, float addrspace(1)* %cp, align 4
  %rx = fmul float %r, %x
  %r.next = fadd float %rx, %c
  %steps.next = add i32 %steps, 1
  %more = icmp sgt i32 %i.next, 0
  br i1 %more, label %body, label %end

end:
  %result = phi float [ 0.0, %entry ], [ %r.next, %body ]
  %st = phi i32 [ 0, %entry ], [ %steps.next, %body ]
  %stf = sitofp i32 %st to float
  %final = fadd float %result, %stf
  ret float %final
}

define void @poly_kernel(float addrspace(1)* %coef, float addrspace(1)* %xs, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %xp = getelementptr inbounds float, float addrspace(1)* %xs, i64 %t64
  %x = load float, float addrspace(1)* %xp, align 4
  %y = call float @horner(float addrspace(1)* %coef, i32 %n, float %x)
  store float %y, float addrspace(1)* %xp, align 4
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(1)*, i32, i32)* @matvec, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @poly_kernel, !"kernel", i32 1}
