; A region's loop is vectorised as an outer loop although the kernel it was
; cut from has an atomic after the barrier: that code is dead in region 0
; (O3 deletes it before the vectoriser runs), and only the blocks the
; region's entry reaches decide (vectorize/outer_loop.c). Before, every
; block did, which kept CLBlast's XgemmDirect compute regions out.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: !llvm.loop ![[L:[0-9]+]]
; CHECK: attributes #{{.*}} "loom-outer-loops"="1"
; CHECK: ![[L]] = distinct !{![[L]], ![[P:[0-9]+]], ![[E:[0-9]+]]}
; CHECK: ![[E]] = !{!"llvm.loop.vectorize.enable", i1 true}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@k.tmp = internal addrspace(3) global [64 x float] undef, align 4

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @k(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, ptr addrspace(1) noundef align 4 %cnt, i32 noundef %n) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %local = call ptr addrspace(3) @__loom_local_base()
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %s.0 = phi float [ 0.000000e+00, %entry ], [ %add1, %for.body ]
  %k.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp slt i32 %k.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %mul = shl nsw i32 %k.0, 6
  %conv = zext nneg i32 %mul to i64
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %1 = getelementptr float, ptr addrspace(1) %in, i64 %0
  %arrayidx = getelementptr float, ptr addrspace(1) %1, i64 %conv
  %2 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %add1 = fadd float %s.0, %2
  %inc = add nuw nsw i32 %k.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %s.0.lcssa = phi float [ %s.0, %for.cond ]
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = getelementptr i8, ptr addrspace(3) %local, i64 0
  %arrayidx3 = getelementptr inbounds [64 x float], ptr addrspace(3) %4, i64 0, i64 %3
  store float %s.0.lcssa, ptr addrspace(3) %arrayidx3, align 4, !tbaa !9
  br label %5

5:                                                ; preds = %for.end
  call void @__loom_barrier_id(i32 1)
  br label %6

6:                                                ; preds = %5
  %7 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %sub = sub i64 63, %7
  %8 = call ptr addrspace(3) @__loom_local_base()
  %9 = getelementptr i8, ptr addrspace(3) %8, i64 0
  %arrayidx5 = getelementptr inbounds [64 x float], ptr addrspace(3) %9, i64 0, i64 %sub
  %10 = load float, ptr addrspace(3) %arrayidx5, align 4, !tbaa !9
  %11 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %12 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %13 = mul i64 %12, %11
  %14 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %15 = getelementptr float, ptr addrspace(1) %out, i64 %13
  %16 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %17 = getelementptr float, ptr addrspace(1) %15, i64 %16
  %arrayidx7 = getelementptr float, ptr addrspace(1) %17, i64 %14
  store float %10, ptr addrspace(1) %arrayidx7, align 4, !tbaa !9
  %18 = atomicrmw add ptr addrspace(1) %cnt, i32 1 monotonic, align 4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent noduplicate nounwind
declare dso_local void @__loom_barrier() local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

declare ptr addrspace(3) @__loom_local_base()

declare ptr @__loom_slot(i64, i64)

declare void @__loom_barrier_id(i32)

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="1 0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent noduplicate nounwind "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}

!5 = !{i32 1, i32 1, i32 1, i32 0}
!6 = !{!"none", !"none", !"none", !"none"}
!7 = !{!"float*", !"float*", !"int*", !"int"}
!8 = !{!"const", !"", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
