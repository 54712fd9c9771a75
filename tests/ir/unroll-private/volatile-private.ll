; A volatile private variable (CLBlast's `volatile int tid = get_local_id(0)
; + MDIMC * get_local_id(1)`) becomes a plain one, then a value: no other
; work-item can see a work-item's private memory. A volatile store to global
; memory stays volatile.
; RUN: -passes=unroll-private

; CHECK-LABEL: define dso_local void @k(
; CHECK-NOT: alloca
; CHECK-NOT: load volatile
; CHECK: %conv = trunc i64 %add to i32
; CHECK: %mul2 = mul nsw i32 %conv, 3
; CHECK: store i32 %mul2, ptr addrspace(1) %arrayidx
; CHECK: store volatile i32 1, ptr addrspace(1) %flag

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @k(ptr addrspace(1) noundef align 4 %out, ptr addrspace(1) noundef align 4 %flag) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %tid = alloca i32, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %tid)
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #3
  %1 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 1) #3
  %mul = shl i64 %1, 3
  %add = add i64 %0, %mul
  %conv = trunc i64 %add to i32
  store volatile i32 %conv, ptr %tid, align 4, !tbaa !9
  %tid.0. = load volatile i32, ptr %tid, align 4, !tbaa !9
  %mul2 = mul nsw i32 %tid.0., 3
  %tid.0.1 = load volatile i32, ptr %tid, align 4, !tbaa !9
  %idxprom = sext i32 %tid.0.1 to i64
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idxprom
  store i32 %mul2, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  store volatile i32 1, ptr addrspace(1) %flag, align 4, !tbaa !9
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %tid)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #2

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 1}
!6 = !{!"none", !"none"}
!7 = !{!"int*", !"int*"}
!8 = !{!"", !"volatile"}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
