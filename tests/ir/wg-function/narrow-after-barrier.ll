; The tutorial tree reduction (workgroup/wi_range.c):
;   s[l] = in[g]; barrier();
;   for (unsigned st = get_local_size(0) / 2; st > 0; st >>= 1) {
;     if (l < st) s[l] += s[l + st]; barrier(); }
;   if (l == 0) out[get_group_id(0)] = s[0];
; The region after the loop's barrier starts with `st >>= 1` and bounds the
; local id by the counter's phi, which in that region keeps one incoming
; value: the shifted value read from the snapshot. Its work-item loop stops
; at that bound (and work-item 0), like the region after the first barrier
; (local size / 2). Before, phis were not cloned, the region walked the
; whole group every round, and the kernel ran at 9 GB/s against 35 for the
; same sum with the barrier at the top of the loop.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; The bound then holds for every work-item the loop runs but when the loop
; runs work-item 0 alone: the guard `l < st` becomes `st != 0`, which the
; loop test `st > 0` before it implies, so the add runs unguarded.
; (The regions' first blocks, with their limits, come before their nests.)
; CHECK-LABEL: define void @r.loom_wg(
; CHECK: %[[HALF:.*]] = lshr i64 %{{.*}}, 1
; CHECK: %x_limit = select i1
; CHECK: %[[ST:.*]] = load i32, ptr %{{.*}}, align 4
; CHECK-NEXT: %[[NEXT:.*]] = lshr i32 %[[ST]], 1
; CHECK-NEXT: %[[WIDE:.*]] = zext i32 %[[NEXT]] to i64
; CHECK-NEXT: %[[IN:.*]] = icmp ult i64 %[[WIDE]], %lsize
; CHECK-NEXT: %[[BOUND:.*]] = select i1 %[[IN]], i64 %[[WIDE]], i64 %lsize
; CHECK: %x_limit{{[0-9]+}} = select i1
; CHECK: icmp ult i64 %{{.*}}, %x_limit
; CHECK: %[[SHR:shr.i.i[0-9]*]] = lshr i32 %live.i.i, 1
; CHECK: %[[DONE:.*]] = icmp eq i32 %[[SHR]], 0
; CHECK-NEXT: br i1 %[[DONE]], label %{{.*}}, label %[[BODY:for.body.i.i[0-9]*]]
; CHECK: [[BODY]]:
; CHECK-NOT: br
; CHECK: store i32 %{{.*}}, ptr addrspace(3)
; CHECK: icmp ult i64 %{{.*}}, %x_limit{{[0-9]+}}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @r(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, ptr addrspace(3) noundef align 4 %s) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = trunc i64 %0 to i32
  %1 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %2 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %3 = mul i64 %2, %1
  %4 = add i64 %3, %0
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %idxprom = and i64 %6, 4294967295
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idxprom
  %7 = load i32, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %idxprom3 = and i64 %0, 4294967295
  %arrayidx4 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %idxprom3
  store i32 %7, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  br label %8

8:                                                ; preds = %entry
  call void @__loom_barrier_id(i32 1)
  br label %9

9:                                                ; preds = %8
  %10 = call i64 @__loom_wi(i32 noundef 1, i32 noundef 0) #4
  %div11 = lshr i64 %10, 1
  %conv6 = trunc i64 %div11 to i32
  br label %for.cond

for.cond:                                         ; preds = %26, %9
  %st.0 = phi i32 [ %conv6, %9 ], [ %shr, %26 ]
  %11 = call ptr @__loom_uslot(i64 0, i64 4)
  store i32 %st.0, ptr %11, align 4
  %12 = call ptr @__loom_uvar(i64 0, i64 4)
  store i32 %st.0, ptr %12, align 4
  %cmp.not = icmp eq i32 %st.0, 0
  br i1 %cmp.not, label %for.end, label %for.body

for.body:                                         ; preds = %for.cond
  %13 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %14 = trunc i64 %13 to i32
  %cmp8 = icmp ugt i32 %st.0, %14
  br i1 %cmp8, label %if.then, label %if.end

if.then:                                          ; preds = %for.body
  %15 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %16 = trunc i64 %15 to i32
  %add = add i32 %st.0, %16
  %idxprom10 = zext i32 %add to i64
  %arrayidx11 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %idxprom10
  %17 = load i32, ptr addrspace(3) %arrayidx11, align 4, !tbaa !9
  %18 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %19 = and i64 %18, 4294967295
  %20 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %19
  %21 = load i32, ptr addrspace(3) %20, align 4, !tbaa !9
  %add14 = add nsw i32 %21, %17
  %22 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %23 = and i64 %22, 4294967295
  %24 = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %23
  store i32 %add14, ptr addrspace(3) %24, align 4, !tbaa !9
  br label %if.end

if.end:                                           ; preds = %if.then, %for.body
  br label %25

25:                                               ; preds = %if.end
  call void @__loom_barrier_id(i32 2)
  br label %26

26:                                               ; preds = %25
  %27 = call ptr @__loom_uvar(i64 0, i64 4)
  %live = load i32, ptr %27, align 4
  %shr = lshr i32 %live, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %28 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %29 = trunc i64 %28 to i32
  %cmp15 = icmp eq i32 %29, 0
  br i1 %cmp15, label %if.then17, label %if.end21

if.then17:                                        ; preds = %for.end
  %30 = load i32, ptr addrspace(3) %s, align 4, !tbaa !9
  %31 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %arrayidx20 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %31
  store i32 %30, ptr addrspace(1) %arrayidx20, align 4, !tbaa !9
  br label %if.end21

if.end21:                                         ; preds = %if.then17, %for.end
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

declare ptr @__loom_slot(i64, i64)

declare void @__loom_barrier_id(i32)

declare ptr @__loom_uslot(i64, i64)

declare ptr @__loom_uvar(i64, i64)

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="2 0 4 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent noduplicate nounwind "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
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
!5 = !{i32 1, i32 1, i32 3}
!6 = !{!"none", !"none", !"none"}
!7 = !{!"int*", !"int*", !"int*"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
