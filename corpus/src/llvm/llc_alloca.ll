; Hand-written NVPTX IR with allocas that cannot be promoted (dynamically
; indexed array, address escaping into a call) => local depot (__local_depot)
; and %SP/%SPL in the PTX.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal void @fill(i32* %buf, i32 %n, i32 %seed) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %v = mul i32 %i, %seed
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds i32, i32* %buf, i64 %i64
  store volatile i32 %v, i32* %p, align 4
  %inc = add i32 %i, 1
  %c = icmp ult i32 %inc, %n
  br i1 %c, label %loop, label %done
done:
  ret void
}

define void @local_array_kernel(i32 addrspace(1)* %out, i32 addrspace(1)* %idx) {
entry:
  %arr = alloca [32 x i32], align 4
  %pair = alloca { i64, double }, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = getelementptr inbounds [32 x i32], [32 x i32]* %arr, i64 0, i64 0
  call void @fill(i32* %base, i32 32, i32 %tid)
  %t64 = zext i32 %tid to i64
  %ip = getelementptr inbounds i32, i32 addrspace(1)* %idx, i64 %t64
  %k = load i32, i32 addrspace(1)* %ip, align 4
  %k31 = and i32 %k, 31
  %k64 = zext i32 %k31 to i64
  %ep = getelementptr inbounds [32 x i32], [32 x i32]* %arr, i64 0, i64 %k64
  %e = load i32, i32* %ep, align 4
  %f0 = getelementptr inbounds { i64, double }, { i64, double }* %pair, i32 0, i32 0
  %f1 = getelementptr inbounds { i64, double }, { i64, double }* %pair, i32 0, i32 1
  %e64 = sext i32 %e to i64
  store volatile i64 %e64, i64* %f0, align 8
  %ed = sitofp i32 %e to double
  store volatile double %ed, double* %f1, align 8
  %r0 = load volatile i64, i64* %f0, align 8
  %r1 = load volatile double, double* %f1, align 8
  %r1i = fptosi double %r1 to i64
  %sum = add i64 %r0, %r1i
  %s32 = trunc i64 %sum to i32
  %op = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %s32, i32 addrspace(1)* %op, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @local_array_kernel, !"kernel", i32 1}
