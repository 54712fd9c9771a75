; A half16 chain without AVX512-FP16 (vectorize/interleave_items.c): each half
; operation is a float one between two conversions (target/x86/half_lower.c),
; so a register of work-items holds 16 values, not 32, and the chain waits
; about 20 cycles a step. OpenCL C: x, y half16; for (i < 8) four dependent
; mads. Its issue cost covers the chain (not latency-bound), so the work-item
; loop gets width 16 - one register of floats per component - where VPlan
; would choose 32 (two per component: 64 registers of chains for x and y,
; spilled: clpeak's half16 kernel 63 -> 109 GFLOP/s on AMD Zen 5). With
; AVX512-FP16 the half operations are native: VPlan's own width.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl,+f16c
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl,+f16c,+avx512bw,+avx512fp16 | --check-prefix=FP16

; CHECK-LABEL: define void @chain16.loom_wg(
; CHECK: !{!"llvm.loop.vectorize.width", i32 16}
; FP16-LABEL: define void @chain16.loom_wg(
; FP16-NOT: llvm.loop.vectorize.width
; FP16: !{!"llvm.loop.vectorize.enable", i1 true}
; FP16-NOT: llvm.loop.vectorize.width

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @chain16(ptr addrspace(1) noundef align 2 %out, float noundef %a) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %conv = fptrunc float %a to half
  %splat.splatinsert = insertelement <16 x half> poison, half %conv, i64 0
  %splat.splat = shufflevector <16 x half> %splat.splatinsert, <16 x half> poison, <16 x i32> zeroinitializer
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv1 = uitofp i64 %0 to half
  %splat.splatinsert2 = insertelement <16 x half> poison, half %conv1, i64 0
  %splat.splat3 = shufflevector <16 x half> %splat.splatinsert2, <16 x half> poison, <16 x i32> zeroinitializer
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %x.0 = phi <16 x half> [ %splat.splat, %entry ], [ %3, %for.body ]
  %y.0 = phi <16 x half> [ %splat.splat3, %entry ], [ %4, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 8
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %1 = call noundef <16 x half> @llvm.fma.v16f16(<16 x half> %y.0, <16 x half> %x.0, <16 x half> %y.0)
  %2 = call noundef <16 x half> @llvm.fma.v16f16(<16 x half> %1, <16 x half> %y.0, <16 x half> %1)
  %3 = call noundef <16 x half> @llvm.fma.v16f16(<16 x half> %2, <16 x half> %1, <16 x half> %2)
  %4 = call noundef <16 x half> @llvm.fma.v16f16(<16 x half> %3, <16 x half> %2, <16 x half> %3)
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %y.0.lcssa = phi <16 x half> [ %y.0, %for.cond ]
  %5 = extractelement <16 x half> %y.0.lcssa, i64 0
  %6 = extractelement <16 x half> %y.0.lcssa, i64 15
  %add = fadd half %5, %6
  %7 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %8 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %9 = mul i64 %8, %7
  %10 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %11 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %12 = getelementptr half, ptr addrspace(1) %out, i64 %9
  %13 = getelementptr half, ptr addrspace(1) %12, i64 %10
  %arrayidx = getelementptr half, ptr addrspace(1) %13, i64 %11
  store half %add, ptr addrspace(1) %arrayidx, align 2, !tbaa !9
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <16 x half> @llvm.fma.v16f16(<16 x half>, <16 x half>, <16 x half>) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 0}
!6 = !{!"none", !"none"}
!7 = !{!"half*", !"float"}
!8 = !{!"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"half", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
