; In a build for one local size (-spec, core/variants.c) the kernel's local
; size queries (__loom_wi kind 1) become constants, and when a loop holds a
; barrier, loops with a constant trip count are fully unrolled: the tree
; reduction's loop `for (step = get_local_size(0) / 2; step > 0; step >>= 1)
; { if (l < step) s[l] += s[l + step]; barrier(); }` at 16 work-items becomes
; four levels with the steps 8, 4, 2, 1 as constants, each with its barrier,
; the barriers still noduplicate. A barrier loop whose trip count is a
; kernel argument stays a loop, its local size a constant (prefix ARGS);
; without -spec nothing changes (prefix NOSPEC).
; RUN: -passes=spec-unroll -spec=tree:16
; RUN: -passes=spec-unroll -spec=args:16 | --check-prefix=ARGS
; RUN: -passes=spec-unroll | --check-prefix=NOSPEC

; CHECK-LABEL: define dso_local void @tree(
; CHECK-NOT: @__loom_wi(i32 noundef 1,
; CHECK: call void @__loom_barrier() #[[BAR:[0-9]+]]
; CHECK-NEXT: icmp slt i32 %conv, 8
; CHECK: call void @__loom_barrier() #[[BAR]]
; CHECK-NEXT: icmp slt i32 %conv, 4
; CHECK: call void @__loom_barrier() #[[BAR]]
; CHECK-NEXT: icmp slt i32 %conv, 2
; CHECK: call void @__loom_barrier() #[[BAR]]
; CHECK-NEXT: icmp slt i32 %conv, 1
; CHECK: call void @__loom_barrier() #[[BAR]]
; CHECK-NEXT: icmp eq i32 %conv, 0
; CHECK-NOT: call void @__loom_barrier()
; CHECK: ret void
; CHECK-LABEL: define dso_local void @args(
; CHECK: @__loom_wi(i32 noundef 1,
; CHECK: declare dso_local void @__loom_barrier() local_unnamed_addr #[[DECL:[0-9]+]]
; CHECK-DAG: attributes #[[DECL]] = { convergent noduplicate
; CHECK-DAG: attributes #[[BAR]] = { convergent nobuiltin noduplicate

; ARGS-LABEL: define dso_local void @args(
; ARGS-NOT: @__loom_wi(i32 noundef 1,
; ARGS: %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
; ARGS: fadd float %{{.*}}, 1.600000e+01
; ARGS: call void @__loom_barrier()
; ARGS: getelementptr i8, ptr addrspace(3) %s, i64 64
; ARGS: call void @__loom_barrier()
; ARGS: br label %for.cond

; NOSPEC-LABEL: define dso_local void @tree(
; NOSPEC: @__loom_wi(i32 noundef 1,
; NOSPEC: %step.0 = phi i32
; NOSPEC-LABEL: define dso_local void @args(
; NOSPEC: @__loom_wi(i32 noundef 1,

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @tree(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, ptr addrspace(3) noundef align 4 %s) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = trunc i64 %0 to i32
  %1 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %2 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %3 = mul i64 %2, %1
  %4 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %5 = getelementptr float, ptr addrspace(1) %in, i64 %3
  %6 = getelementptr float, ptr addrspace(1) %5, i64 %0
  %arrayidx = getelementptr float, ptr addrspace(1) %6, i64 %4
  %7 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %sext = shl i64 %0, 32
  %8 = ashr exact i64 %sext, 30
  %arrayidx2 = getelementptr inbounds i8, ptr addrspace(3) %s, i64 %8
  store float %7, ptr addrspace(3) %arrayidx2, align 4, !tbaa !9
  call void @__loom_barrier() #5
  %9 = call i64 @__loom_wi(i32 noundef 1, i32 noundef 0) #4
  %div11 = lshr i64 %9, 1
  %conv4 = trunc i64 %div11 to i32
  br label %for.cond

for.cond:                                         ; preds = %if.end, %entry
  %step.0 = phi i32 [ %conv4, %entry ], [ %shr, %if.end ]
  %cmp = icmp sgt i32 %step.0, 0
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %cmp6 = icmp sgt i32 %step.0, %conv
  br i1 %cmp6, label %if.then, label %if.end

if.then:                                          ; preds = %for.body
  %add = add nsw i32 %step.0, %conv
  %idxprom8 = sext i32 %add to i64
  %arrayidx9 = getelementptr inbounds float, ptr addrspace(3) %s, i64 %idxprom8
  %10 = load float, ptr addrspace(3) %arrayidx9, align 4, !tbaa !9
  %11 = load float, ptr addrspace(3) %arrayidx2, align 4, !tbaa !9
  %add12 = fadd float %11, %10
  store float %add12, ptr addrspace(3) %arrayidx2, align 4, !tbaa !9
  br label %if.end

if.end:                                           ; preds = %if.then, %for.body
  call void @__loom_barrier() #5
  %shr = lshr i32 %step.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %cmp13 = icmp eq i32 %conv, 0
  br i1 %cmp13, label %if.then15, label %if.end19

if.then15:                                        ; preds = %for.end
  %12 = load float, ptr addrspace(3) %s, align 4, !tbaa !9
  %13 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %arrayidx18 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %13
  store float %12, ptr addrspace(1) %arrayidx18, align 4, !tbaa !9
  br label %if.end19

if.end19:                                         ; preds = %if.then15, %for.end
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @args(ptr addrspace(1) noundef align 4 %io, ptr addrspace(3) noundef align 4 %s, i32 noundef %n) #0 !kernel_arg_addr_space !13 !kernel_arg_access_qual !6 !kernel_arg_type !14 !kernel_arg_base_type !14 !kernel_arg_type_qual !15 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %sext = shl i64 %0, 32
  %idxprom = ashr exact i64 %sext, 32
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %io, i64 %idxprom
  %1 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %2 = call i64 @__loom_wi(i32 noundef 1, i32 noundef 0) #4
  %conv3 = uitofp i64 %2 to float
  %add = fadd float %1, %conv3
  %arrayidx5 = getelementptr inbounds float, ptr addrspace(3) %s, i64 %idxprom
  store float %add, ptr addrspace(3) %arrayidx5, align 4, !tbaa !9
  call void @__loom_barrier() #5
  %3 = xor i64 %idxprom, -1
  %4 = getelementptr float, ptr addrspace(3) %s, i64 %2
  %arrayidx9 = getelementptr float, ptr addrspace(3) %4, i64 %3
  %5 = load float, ptr addrspace(3) %arrayidx9, align 4, !tbaa !9
  store float %5, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  call void @__loom_barrier() #5
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  ret void
}

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
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 1, i32 3}
!6 = !{!"none", !"none", !"none"}
!7 = !{!"float*", !"float*", !"float*"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{i32 1, i32 3, i32 0}
!14 = !{!"float*", !"float*", !"int"}
!15 = !{!"", !"", !""}
