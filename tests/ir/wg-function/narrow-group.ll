; The region of counted-inner.ll in a kernel whose work-groups are 8 wide
; (reqd_work_group_size(8,1,1)): its outer loop is pinned to 8 lanes. VPlan
; chooses an outer loop's width without the trip count; at 16 lanes (AVX-512
; floats) an 8-wide group ran every work-item in the scalar remainder
; (CLBlast's XgemmDirect, 2.5x slower than one work-item at a time;
; workgroup/wg_function.c). Without the attribute VPlan chooses
; (counted-inner.ll: no width).
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: wi_x:
; CHECK: br i1 %{{.*}}, label %wi_x, label %wi_y_latch, !llvm.loop ![[L:[0-9]+]]
; CHECK: attributes #{{.*}} "loom-outer-loops"="1"
; CHECK: ![[L]] = distinct !{![[L]], ![[P:[0-9]+]], ![[E:[0-9]+]], ![[W:[0-9]+]]}
; CHECK: ![[E]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK: ![[W]] = !{!"llvm.loop.vectorize.width", i32 8}



target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local void @k(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, i32 noundef %n) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !reqd_work_group_size !20 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #5
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #5
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #5
  %6 = add i64 %4, %5
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %s.0 = phi float [ 0.000000e+00, %entry ], [ %9, %for.body ]
  %k.0 = phi i32 [ 1, %entry ], [ %add, %for.body ]
  %cmp = icmp slt i32 %k.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  call void @llvm.experimental.noalias.scope.decl(metadata !13)
  %add.ptr = getelementptr inbounds i8, ptr addrspace(1) %in, i64 4
  %idxprom.i = zext nneg i32 %k.0 to i64
  %arrayidx.i = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idxprom.i
  %7 = load float, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !9, !alias.scope !13, !noalias !16
  %arrayidx2.i = getelementptr inbounds float, ptr addrspace(1) %add.ptr, i64 %idxprom.i
  %8 = load float, ptr addrspace(1) %arrayidx2.i, align 4, !tbaa !9, !alias.scope !16, !noalias !13
  %add.i = fadd float %7, %8
  %conv = uitofp i64 %6 to float
  %9 = call float @llvm.fmuladd.f32(float %add.i, float %conv, float %s.0)
  %add = add nuw nsw i32 %k.0, 3
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %s.0.lcssa = phi float [ %s.0, %for.cond ]
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %out, i64 %6
  store float %s.0.lcssa, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  ret void
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

declare float @llvm.fmuladd.f32(float, float, float) #2

declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

declare void @llvm.experimental.noalias.scope.decl(metadata) #4

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #5 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}

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
!13 = !{!14}
!14 = distinct !{!14, !15, !"twice: p"}
!15 = distinct !{!15, !"twice"}
!16 = !{!17}
!17 = distinct !{!17, !15, !"twice: q"}
!20 = !{i32 8, i32 1, i32 1}
