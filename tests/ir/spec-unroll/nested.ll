; Barrier loops nested in a barrier loop: a bitonic sort in local memory,
;   for (k = 2; k <= get_local_size(0); k <<= 1)
;     for (j = k >> 1; j > 0; j >>= 1) { p = l ^ j; if (p > l) swap...; barrier(); }
; The inner loop's trip count is set by the outer one's counter, so the
; outer loop is unrolled first, then each copy of the inner one: at 8
; work-items one barrier before the loops and six in them (k = 2: j = 1;
; k = 4: j = 2, 1; k = 8: j = 4, 2, 1), each step's j a constant; at 256,
; 1 + 36 (prefix BIG). (LLVM's loop-unroll-full at its default limits left
; the sort at 256 one loop, 200 ms a launch of 4 M ints against 82
; unrolled.)
; RUN: -passes=spec-unroll -spec=sort:8
; RUN: -passes=spec-unroll -spec=sort:256 | --check-prefix=BIG

; CHECK-LABEL: define dso_local void @sort(
; CHECK-NOT: @__loom_wi(i32 noundef 1,
; CHECK: call void @__loom_barrier()
; CHECK: xor i32 %conv, 1
; CHECK: call void @__loom_barrier()
; CHECK: xor i32 %conv, 2
; CHECK: call void @__loom_barrier()
; CHECK: call void @__loom_barrier()
; CHECK: xor i32 %conv, 4
; CHECK: call void @__loom_barrier()
; CHECK: call void @__loom_barrier()
; CHECK: call void @__loom_barrier()
; CHECK-NOT: call void @__loom_barrier()
; CHECK-NOT: phi i32
; CHECK: ret void

; BIG-LABEL: define dso_local void @sort(
; BIG-COUNT-37: call void @__loom_barrier()
; BIG-NOT: call void @__loom_barrier()
; BIG: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @sort(ptr addrspace(1) noundef align 4 %a, ptr addrspace(3) noundef align 4 %s) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = trunc i64 %0 to i32
  %1 = call i64 @__loom_wi(i32 noundef 1, i32 noundef 0) #4
  %conv2 = trunc i64 %1 to i32
  %2 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %3 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %4 = mul i64 %3, %2
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = getelementptr i32, ptr addrspace(1) %a, i64 %4
  %7 = getelementptr i32, ptr addrspace(1) %6, i64 %0
  %arrayidx = getelementptr i32, ptr addrspace(1) %7, i64 %5
  %8 = load i32, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %idxprom = and i64 %0, 4294967295
  %arrayidx4 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %idxprom
  store i32 %8, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  call void @__loom_barrier() #5
  br label %for.cond

for.cond:                                         ; preds = %for.inc31, %entry
  %k.0 = phi i32 [ 2, %entry ], [ %shl, %for.inc31 ]
  %cmp.not = icmp ugt i32 %k.0, %conv2
  br i1 %cmp.not, label %for.end32, label %for.body

for.body:                                         ; preds = %for.cond
  br label %for.cond6

for.cond6:                                        ; preds = %if.end29, %for.body
  %j.0.in = phi i32 [ %k.0, %for.body ], [ %j.0, %if.end29 ]
  %j.0 = lshr i32 %j.0.in, 1
  %cmp7.not = icmp ult i32 %j.0.in, 2
  br i1 %cmp7.not, label %for.inc31, label %for.body10

for.body10:                                       ; preds = %for.cond6
  %xor = xor i32 %j.0, %conv
  %cmp11 = icmp ugt i32 %xor, %conv
  br i1 %cmp11, label %if.then, label %if.end29

if.then:                                          ; preds = %for.body10
  %9 = load i32, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  %idxprom15 = zext i32 %xor to i64
  %arrayidx16 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %idxprom15
  %10 = load i32, ptr addrspace(3) %arrayidx16, align 4, !tbaa !9
  %and = and i32 %k.0, %conv
  %cmp19 = icmp sgt i32 %9, %10
  %11 = icmp ne i32 %and, 0
  %cmp22 = xor i1 %cmp19, %11
  br i1 %cmp22, label %if.then24, label %if.end29

if.then24:                                        ; preds = %if.then
  store i32 %10, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  store i32 %9, ptr addrspace(3) %arrayidx16, align 4, !tbaa !9
  br label %if.end29

if.end29:                                         ; preds = %if.then, %if.then24, %for.body10
  call void @__loom_barrier() #5
  br label %for.cond6

for.inc31:                                        ; preds = %for.cond6
  %shl = shl i32 %k.0, 1
  br label %for.cond

for.end32:                                        ; preds = %for.cond
  %12 = load i32, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  %13 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %14 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %15 = mul i64 %14, %13
  %16 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %17 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %18 = getelementptr i32, ptr addrspace(1) %a, i64 %15
  %19 = getelementptr i32, ptr addrspace(1) %18, i64 %16
  %arrayidx36 = getelementptr i32, ptr addrspace(1) %19, i64 %17
  store i32 %12, ptr addrspace(1) %arrayidx36, align 4, !tbaa !9
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
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 3}
!6 = !{!"none", !"none"}
!7 = !{!"int*", !"int*"}
!8 = !{!"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
