; printf with every argument type, called directly (not vprintf): signed and
; unsigned 8/16/32/64-bit integers (promoted with sext/zext as clang does, and
; i8/i16/float passed raw, without C's default promotions), float and double,
; strings (%s) and pointers (%p), immediates, a format in .const (addrspace 4).
; llc leaves variadic calls that ptxas rejects; ptxlink's printf stage lowers them.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt_int = private unnamed_addr addrspace(1) constant [59 x i8] c"i8 %d u8 %u i16 %d u16 %u i32 %d u32 %u i64 %lld u64 %llu\0A\00", align 1
@fmt_raw = private unnamed_addr addrspace(1) constant [65 x i8] c"raw i8 %hhd u8 %hhu i16 %hd u16 %hu f32 %f %.3e imm %hhd %hu %g\0A\00", align 1
@fmt_fp = private unnamed_addr addrspace(1) constant [29 x i8] c"f64 %f %g %e %.10f f32 %.2f\0A\00", align 1
@fmt_str = private unnamed_addr addrspace(1) constant [45 x i8] c"str [%s] [%-8s] [%8.3s] ptr %p long %ld %lx\0A\00", align 1
@fmt_const = private unnamed_addr addrspace(4) constant [36 x i8] c"const %x %X %#o %c%c %5d|%-5d|%05d\0A\00", align 1
@hello = private unnamed_addr addrspace(1) constant [6 x i8] c"hello\00", align 1

declare i32 @printf(i8*, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @types_kernel(i8 %c, i16 %s, i32 %i, i64 %l, float %f, double %d, i8* %p) {
entry:
  %f1.a = getelementptr inbounds [59 x i8], [59 x i8] addrspace(1)* @fmt_int, i64 0, i64 0
  %f1 = addrspacecast i8 addrspace(1)* %f1.a to i8*
  %cs = sext i8 %c to i32
  %cu = zext i8 %c to i32
  %ss = sext i16 %s to i32
  %su = zext i16 %s to i32
  %r1 = call i32 (i8*, ...) @printf(i8* %f1, i32 %cs, i32 %cu, i32 %ss, i32 %su, i32 %i, i32 %i, i64 %l, i64 %l)
  %f2.a = getelementptr inbounds [65 x i8], [65 x i8] addrspace(1)* @fmt_raw, i64 0, i64 0
  %f2 = addrspacecast i8 addrspace(1)* %f2.a to i8*
  ; no default promotions: i8, i16 and float go as they are
  %r2 = call i32 (i8*, ...) @printf(i8* %f2, i8 %c, i8 %c, i16 %s, i16 %s, float %f, float %f, i8 -3, i16 65535, float 1.5)
  %f3.a = getelementptr inbounds [29 x i8], [29 x i8] addrspace(1)* @fmt_fp, i64 0, i64 0
  %f3 = addrspacecast i8 addrspace(1)* %f3.a to i8*
  %fe = fpext float %f to double
  %r3 = call i32 (i8*, ...) @printf(i8* %f3, double %d, double %d, double %d, double %d, double %fe)
  %f4.a = getelementptr inbounds [45 x i8], [45 x i8] addrspace(1)* @fmt_str, i64 0, i64 0
  %f4 = addrspacecast i8 addrspace(1)* %f4.a to i8*
  %h.a = getelementptr inbounds [6 x i8], [6 x i8] addrspace(1)* @hello, i64 0, i64 0
  %h = addrspacecast i8 addrspace(1)* %h.a to i8*
  %r4 = call i32 (i8*, ...) @printf(i8* %f4, i8* %h, i8* %h, i8* %h, i8* %p, i64 %l, i64 %l)
  %f5.a = getelementptr inbounds [36 x i8], [36 x i8] addrspace(4)* @fmt_const, i64 0, i64 0
  %f5 = addrspacecast i8 addrspace(4)* %f5.a to i8*
  %r5 = call i32 (i8*, ...) @printf(i8* %f5, i32 %i, i32 %i, i32 %i, i32 72, i32 105, i32 %i, i32 %i, i32 %i)
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i8, i16, i32, i64, float, double, i8*)* @types_kernel, !"kernel", i32 1}
