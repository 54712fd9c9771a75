; Work-items side by side for a latency-bound inner loop (vectorize/interleave_items.c).
; OpenCL C: x = a, y = lid; for (i < 64) { x = mad(y, x, y); y = mad(x, y, x); x.. y.. }
; Each iteration is a chain of four dependent FMAs (16 cycles) for 2 cycles
; of issue: 8 registers of work-items side by side would cover it. LLVM
; takes widths up to 64, so the region's work-item loop gets width 64 (4
; AVX-512 registers of floats) and an unroll-and-jam count of 2 (pass
; jam-items), over the largest multiple of 128 work-items (%wide_end); the
; ordinary outer loop ID (no width) runs the rest, entered only when some
; are left. The function is marked "loom-jam-loops" for jam-items. Before,
; clpeak's float kernel ran at a quarter of float4's rate.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl
; RUN: -passes=wg-function -mattr=+avx2,+fma | --check-prefix=AVX2

; CHECK-LABEL: define void @chain.loom_wg(
; CHECK: %wide_end = and i64 %lsize, -128
; CHECK-NEXT: %[[ANY:.*]] = icmp ne i64 %wide_end, 0
; CHECK-NEXT: br i1 %[[ANY]], label %wi_x, label %wi_x_rest
; CHECK: wi_x:
; CHECK: call noundef float @llvm.fmuladd.f32
; CHECK: %[[MORE:.*]] = icmp ult i64 %{{.*}}, %wide_end
; CHECK-NEXT: br i1 %[[MORE]], label %wi_x, label %wi_x_rest, !llvm.loop ![[WIDE:[0-9]+]]
; CHECK: wi_x_rest:
; CHECK-NEXT: %[[LEFT:.*]] = icmp ult i64 %wide_end, %lsize
; CHECK-NEXT: br i1 %[[LEFT]], label %wi_x_tail, label %wi_y_latch
; CHECK: wi_x_tail:
; CHECK-NEXT: %{{.*}} = phi i64 [ %wide_end, %wi_x_rest ]
; CHECK: br i1 %{{.*}}, label %wi_x_tail, label %wi_y_latch, !llvm.loop ![[REST:[0-9]+]]
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"loom-jam-loops"="1"
; CHECK: ![[WIDE]] = distinct !{![[WIDE]], ![[PAR:[0-9]+]], ![[ENABLE:[0-9]+]], ![[WIDTH:[0-9]+]], ![[JAM:[0-9]+]]}
; CHECK: ![[ENABLE]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 64}
; CHECK: ![[JAM]] = !{!"llvm.loop.unroll_and_jam.count", i32 2}
; CHECK: ![[REST]] = distinct !{![[REST]], ![[PAR]], ![[ENABLE]]}
; Without AVX-512: 8 floats a register, 4 registers (the chains' values within 8
; of 16), 32 work-items: no unroll-and-jam.
; AVX2: %wide_end = and i64 %lsize, -32
; AVX2-NOT: unroll_and_jam
; AVX2: !{!"llvm.loop.vectorize.width", i32 32}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @chain(ptr addrspace(1) noundef align 4 %out, float noundef %a) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = uitofp i64 %0 to float
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %x.0 = phi float [ %a, %entry ], [ %3, %for.body ]
  %y.0 = phi float [ %conv, %entry ], [ %4, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 64
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %1 = call noundef float @llvm.fmuladd.f32(float %y.0, float %x.0, float %y.0)
  %2 = call noundef float @llvm.fmuladd.f32(float %1, float %y.0, float %1)
  %3 = call noundef float @llvm.fmuladd.f32(float %2, float %1, float %2)
  %4 = call noundef float @llvm.fmuladd.f32(float %3, float %2, float %3)
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %y.0.lcssa = phi float [ %y.0, %for.cond ]
  %5 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %6 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %7 = mul i64 %6, %5
  %8 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %9 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %10 = getelementptr float, ptr addrspace(1) %out, i64 %7
  %11 = getelementptr float, ptr addrspace(1) %10, i64 %8
  %arrayidx = getelementptr float, ptr addrspace(1) %11, i64 %9
  store float %y.0.lcssa, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 0}
!6 = !{!"none", !"none"}
!7 = !{!"float*", !"float"}
!8 = !{!"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
