; An inner loop bound by issue, not latency (vectorize/interleave_items.c):
;   for (i < n) { x = a[i], y = a[i + n], z = a[i + 2n], w = a[g + i];
;                 acc += x * w + y * y + z * x; }
; The recurrence is one FADD (4 cycles) against about 5 cycles of issue
; (4 loads, 3 multiplies and adds, the index arithmetic): one work-item
; loop, with the outer loop ID VPlan picks the width for.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @dots.loom_wg(
; CHECK-NOT: wide_end
; CHECK: br i1 %{{.*}}, label %wi_x, label %wi_y_latch, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-NOT: wi_x_rest
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PAR:[0-9]+]], ![[ENABLE:[0-9]+]]}
; CHECK-NOT: llvm.loop.vectorize.width

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @dots(ptr addrspace(1) noundef align 4 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %n) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %acc.0 = phi float [ 0.000000e+00, %entry ], [ %add13, %for.body ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = zext nneg i32 %i.0 to i64
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom
  %7 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %add = add nsw i32 %i.0, %n
  %idxprom2 = sext i32 %add to i64
  %arrayidx3 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom2
  %8 = load float, ptr addrspace(1) %arrayidx3, align 4, !tbaa !9
  %mul = shl nsw i32 %n, 1
  %add4 = add nsw i32 %i.0, %mul
  %idxprom5 = sext i32 %add4 to i64
  %arrayidx6 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom5
  %9 = load float, ptr addrspace(1) %arrayidx6, align 4, !tbaa !9
  %add7 = add nsw i32 %i.0, %conv
  %idxprom8 = sext i32 %add7 to i64
  %arrayidx9 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom8
  %10 = load float, ptr addrspace(1) %arrayidx9, align 4, !tbaa !9
  %mul11 = fmul float %8, %8
  %11 = call float @llvm.fmuladd.f32(float %7, float %10, float %mul11)
  %12 = call float @llvm.fmuladd.f32(float %9, float %7, float %11)
  %add13 = fadd float %acc.0, %12
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %acc.0.lcssa = phi float [ %acc.0, %for.cond ]
  %sext = shl i64 %6, 32
  %13 = ashr exact i64 %sext, 30
  %arrayidx15 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %13
  store float %acc.0.lcssa, ptr addrspace(1) %arrayidx15, align 4, !tbaa !9
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

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
!5 = !{i32 1, i32 1, i32 0}
!6 = !{!"none", !"none", !"none"}
!7 = !{!"float*", !"float*", !"int"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
