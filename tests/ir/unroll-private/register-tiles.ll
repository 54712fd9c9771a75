; "unroll-private": a private array SROA left in memory because loop
; counters index it (OpenCL C: float acc[4] filled and summed by
; `#pragma unroll` loops inside a loop over 64 rows) becomes values: the
; constant-trip loops are unrolled, the indices become constants, SROA
; splits the array; the loop over the rows stays a loop. A table indexed
; by data (lut: t[in[gid] & 7]) stays in memory.
; RUN: -passes=unroll-private

; CHECK-LABEL: define dso_local void @k(
; CHECK-NOT: alloca
; CHECK: phi float
; CHECK: fadd float
; CHECK: fadd float
; CHECK: fadd float
; CHECK: fadd float
; CHECK: br label %for.cond1
; CHECK-LABEL: define dso_local void @lut(
; CHECK: alloca [8 x i32]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @k(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %acc = alloca [4 x float], align 4
  call void @llvm.lifetime.start.p0(i64 16, ptr nonnull %acc) #4
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %j.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %j.0, 4
  br i1 %cmp, label %for.body, label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond
  br label %for.cond1

for.body:                                         ; preds = %for.cond
  %idxprom = zext nneg i32 %j.0 to i64
  %arrayidx = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %idxprom
  store float 0.000000e+00, ptr %arrayidx, align 4, !tbaa !9
  %inc = add nuw nsw i32 %j.0, 1
  br label %for.cond, !llvm.loop !13

for.cond1:                                        ; preds = %for.cond1.preheader, %for.inc18
  %i.0 = phi i32 [ %inc19, %for.inc18 ], [ 0, %for.cond1.preheader ]
  %cmp2 = icmp ult i32 %i.0, 64
  br i1 %cmp2, label %for.cond6.preheader, label %for.end20

for.cond6.preheader:                              ; preds = %for.cond1
  br label %for.cond6

for.cond6:                                        ; preds = %for.cond6.preheader, %for.body9
  %j5.0 = phi i32 [ %inc16, %for.body9 ], [ 0, %for.cond6.preheader ]
  %cmp7 = icmp ult i32 %j5.0, 4
  br i1 %cmp7, label %for.body9, label %for.inc18

for.body9:                                        ; preds = %for.cond6
  %mul = shl nuw nsw i32 %i.0, 2
  %add = or disjoint i32 %mul, %j5.0
  %idxprom10 = zext nneg i32 %add to i64
  %arrayidx11 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idxprom10
  %0 = load float, ptr addrspace(1) %arrayidx11, align 4, !tbaa !9
  %idxprom12 = zext nneg i32 %j5.0 to i64
  %arrayidx13 = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %idxprom12
  %1 = load float, ptr %arrayidx13, align 4, !tbaa !9
  %add14 = fadd float %1, %0
  store float %add14, ptr %arrayidx13, align 4, !tbaa !9
  %inc16 = add nuw nsw i32 %j5.0, 1
  br label %for.cond6, !llvm.loop !15

for.inc18:                                        ; preds = %for.cond6
  %inc19 = add nuw nsw i32 %i.0, 1
  br label %for.cond1

for.end20:                                        ; preds = %for.cond1
  %2 = load float, ptr %acc, align 4, !tbaa !9
  %arrayidx22 = getelementptr inbounds i8, ptr %acc, i64 4
  %3 = load float, ptr %arrayidx22, align 4, !tbaa !9
  %arrayidx24 = getelementptr inbounds i8, ptr %acc, i64 8
  %4 = load float, ptr %arrayidx24, align 4, !tbaa !9
  %arrayidx25 = getelementptr inbounds i8, ptr %acc, i64 12
  %5 = load float, ptr %arrayidx25, align 4, !tbaa !9
  %mul26 = fmul float %4, %5
  %6 = call float @llvm.fmuladd.f32(float %2, float %3, float %mul26)
  %7 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #5
  %8 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #5
  %9 = mul i64 %8, %7
  %10 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %11 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #5
  %12 = getelementptr float, ptr addrspace(1) %out, i64 %9
  %13 = getelementptr float, ptr addrspace(1) %12, i64 %10
  %arrayidx27 = getelementptr float, ptr addrspace(1) %13, i64 %11
  store float %6, ptr addrspace(1) %arrayidx27, align 4, !tbaa !9
  call void @llvm.lifetime.end.p0(i64 16, ptr nonnull %acc) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @lut(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !16 !kernel_arg_base_type !16 !kernel_arg_type_qual !8 {
entry:
  %t = alloca [8 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 32, ptr nonnull %t) #4
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %j.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %j.0, 8
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = zext nneg i32 %j.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idxprom
  %0 = load i32, ptr addrspace(1) %arrayidx, align 4, !tbaa !17
  %arrayidx2 = getelementptr inbounds [8 x i32], ptr %t, i64 0, i64 %idxprom
  store i32 %0, ptr %arrayidx2, align 4, !tbaa !17
  %inc = add nuw nsw i32 %j.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %1 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #5
  %2 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #5
  %3 = mul i64 %2, %1
  %4 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %5 = add i64 %3, %4
  %6 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #5
  %7 = add i64 %5, %6
  %arrayidx3 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %7
  %8 = load i32, ptr addrspace(1) %arrayidx3, align 4, !tbaa !17
  %and = and i32 %8, 7
  %idxprom4 = zext nneg i32 %and to i64
  %arrayidx5 = getelementptr inbounds [8 x i32], ptr %t, i64 0, i64 %idxprom4
  %9 = load i32, ptr %arrayidx5, align 4, !tbaa !17
  %arrayidx7 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %7
  store i32 %9, ptr addrspace(1) %arrayidx7, align 4, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 32, ptr nonnull %t) #4
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind }
attributes #5 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 1}
!6 = !{!"none", !"none"}
!7 = !{!"float*", !"float*"}
!8 = !{!"const", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.unroll.enable"}
!15 = distinct !{!15, !14}
!16 = !{!"int*", !"int*"}
!17 = !{!18, !18, i64 0}
!18 = !{!"int", !11, i64 0}
