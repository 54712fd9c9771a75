; A switch whose empty cases share a successor, after a barrier: the PHI
; there has three entries for the switch's block. The value live across the
; barrier is reloaded once for that block and all three entries get the
; same reload; one reload per entry made the PHI invalid (loom-fuzz seeds
; 139, 7, 21...: tests/fuzz/bugs/switch-phi-barrier.cl).
; RUN: -passes=wg-barriers

; CHECK-LABEL: define dso_local void @k(
; CHECK: store i32 %add1, ptr %[[S:slot[0-9]*]]
; CHECK: %live = load i32, ptr %{{slot[0-9]*}}
; CHECK-NEXT: switch
; CHECK: %v.2 = phi i32 [ %live, %[[B:[0-9a-z.]+]] ], [ %live, %[[B]] ], [ %live, %[[B]] ], [ 7, %sw.bb ]
; ModuleID = 'sw.ll'
source_filename = "sw.cl"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @k(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, i32 noundef %add) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %and = and i64 %6, 1023
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %and
  %7 = load i32, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %add1 = add i32 %7, %add
  call void @__loom_barrier() #5
  %add2 = add i64 %6, 1
  %and3 = and i64 %add2, 1023
  %arrayidx5 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %and3
  %8 = load i32, ptr addrspace(1) %arrayidx5, align 4, !tbaa !9
  %and6 = and i32 %8, 3
  switch i32 %and6, label %entry.unreachabledefault [
    i32 0, label %sw.bb
    i32 2, label %sw.epilog
    i32 1, label %sw.epilog
    i32 3, label %sw.epilog
  ]

sw.bb:                                            ; preds = %entry
  br label %sw.epilog

entry.unreachabledefault:                         ; preds = %entry
  unreachable

sw.epilog:                                        ; preds = %entry, %entry, %sw.bb, %entry
  %v.2 = phi i32 [ %add1, %entry ], [ %add1, %entry ], [ %add1, %entry ], [ 7, %sw.bb ]
  %idxprom9 = and i64 %6, 4294967295
  %arrayidx10 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idxprom9
  store i32 %v.2, ptr addrspace(1) %arrayidx10, align 4, !tbaa !9
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

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent noduplicate nounwind "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }
attributes #5 = { convergent nobuiltin noduplicate nounwind "no-builtins" }

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
!7 = !{!"uint*", !"uint*", !"uint"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
