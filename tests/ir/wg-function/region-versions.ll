; A tile loop around two barriers with a remainder loop after it (OpenCL C:
;   for (; k + 64 <= n; k += 64) { t[l] = a[k + l]; barrier; for (j < 64)
;   acc += t[j] * l; barrier; }  for (; k < n; k++) acc += a[k];  out[gid] = acc;)
; Region 2, after the second barrier, goes back to the copy (barrier 1) or
; into the remainder and the store (the end) by `k + 64 > n`, k a
; group-uniform slot: with two results and an inner loop its work-item
; loop could be neither an outer loop nor innermost (CLBlast's
; XgemmDirect: the tile copy one work-item at a time). It becomes two
; region functions, one per side of the test (workgroup/region_versions.c):
; the work-group function computes the test once from the group's snapshot
; and n, and runs the matching version's loops: the exit side an outer
; loop (vectorize.enable: its remainder loop), the copy side a plain
; parallel loop. Region 0 is versioned the same way (`64 > n`).
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @tiles.loom_wg(
; CHECK-NOT: __loom_
; CHECK: switch i32 %{{.*}}, label %done [
; CHECK-NEXT: i32 0, label %[[R0:region[0-9]*]]
; CHECK-NEXT: i32 1, label %[[R1:region[0-9]*]]
; CHECK-NEXT: i32 2, label %[[R2:region[0-9]*]]
; CHECK: [[R0]]:
; CHECK: %[[T0:.*]] = icmp sgt i32 %{{.*}}, %arg4
; CHECK-NEXT: br i1 %[[T0]], label %region_true, label %region_false
; CHECK: [[R2]]:
; CHECK-NEXT: call void @llvm.memcpy
; CHECK-NEXT: %[[S:.*]] = getelementptr i8, ptr %uniform_snapshot, i64 0
; CHECK-NEXT: %[[K:.*]] = load i32, ptr %[[S]]
; CHECK-NEXT: %[[K64:.*]] = add nuw nsw i32 %[[K]], 64
; CHECK-NEXT: %[[T:.*]] = icmp sgt i32 %[[K64]], %arg4
; CHECK-NEXT: br i1 %[[T]], label %[[YES:region_true[0-9]*]], label %[[NO:region_false[0-9]*]]
; CHECK: [[YES]]:
; CHECK-NEXT: br label %[[YZ:wi_z[0-9]*]]
; CHECK: [[NO]]:
; CHECK-NEXT: br label %[[NZ:wi_z[0-9]*]]
; CHECK: [[YZ]]:
; CHECK: br i1 %{{.*}}, label %wi_x{{[0-9]*}}, label %wi_y_latch{{[0-9]*}}, !llvm.loop ![[OUTER:[0-9]+]]
; CHECK: [[NZ]]:
; CHECK: br i1 %{{.*}}, label %wi_x{{[0-9]*}}, label %wi_y_latch{{[0-9]*}}, !llvm.loop ![[PLAIN:[0-9]+]]
; CHECK-NOT: loom_region
; CHECK: ![[E:[0-9]+]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK: ![[OUTER]] = distinct !{![[OUTER]], !{{[0-9]+}}, ![[E]]}
; CHECK: ![[PLAIN]] = distinct !{![[PLAIN]], !{{[0-9]+}}}{{$}}

; ModuleID = 'tiles_fe.ll'
source_filename = "tiles.cl"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@tiles.t = internal addrspace(3) global [64 x float] undef, align 4

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @tiles(ptr addrspace(1) noundef align 4 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %n) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %local = call ptr addrspace(3) @__loom_local_base()
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %conv = trunc i64 %0 to i32
  br label %for.cond

for.cond:                                         ; preds = %18, %entry
  %acc.0 = phi float [ 0.000000e+00, %entry ], [ %live18, %18 ]
  %k.0 = phi i32 [ 0, %entry ], [ %live15, %18 ]
  %slot = call ptr @__loom_slot(i64 0, i64 4)
  store float %acc.0, ptr %slot, align 4
  %add = add nuw nsw i32 %k.0, 64
  %1 = call ptr @__loom_uslot(i64 0, i64 4)
  store i32 %add, ptr %1, align 4
  %2 = call ptr @__loom_uvar(i64 0, i64 4)
  store i32 %add, ptr %2, align 4
  %cmp.not = icmp sgt i32 %add, %n
  br i1 %cmp.not, label %for.cond15.preheader, label %for.body

for.cond15.preheader:                             ; preds = %for.cond
  %acc.0.lcssa = phi float [ %acc.0, %for.cond ]
  %k.0.lcssa = phi i32 [ %k.0, %for.cond ]
  br label %for.cond15

for.body:                                         ; preds = %for.cond
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %4 = trunc i64 %3 to i32
  %add2 = add nsw i32 %k.0, %4
  %idxprom = sext i32 %add2 to i64
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom
  %5 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %6 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %sext = shl i64 %6, 32
  %idxprom3 = ashr exact i64 %sext, 32
  %7 = call ptr addrspace(3) @__loom_local_base()
  %8 = getelementptr i8, ptr addrspace(3) %7, i64 0
  %arrayidx4 = getelementptr inbounds [64 x float], ptr addrspace(3) %8, i64 0, i64 %idxprom3
  store float %5, ptr addrspace(3) %arrayidx4, align 4, !tbaa !9
  br label %9

9:                                                ; preds = %for.body
  call void @__loom_barrier_id(i32 1)
  br label %10

10:                                               ; preds = %9
  %slot14 = call ptr @__loom_slot(i64 0, i64 4)
  %live = load float, ptr %slot14, align 4
  br label %for.cond5

for.cond5:                                        ; preds = %for.body8, %10
  %acc.1 = phi float [ %live, %10 ], [ %16, %for.body8 ]
  %j.0 = phi i32 [ 0, %10 ], [ %inc, %for.body8 ]
  %cmp6 = icmp ult i32 %j.0, 64
  br i1 %cmp6, label %for.body8, label %for.end

for.body8:                                        ; preds = %for.cond5
  %idxprom9 = zext nneg i32 %j.0 to i64
  %11 = call ptr addrspace(3) @__loom_local_base()
  %12 = getelementptr i8, ptr addrspace(3) %11, i64 0
  %arrayidx10 = getelementptr inbounds [64 x float], ptr addrspace(3) %12, i64 0, i64 %idxprom9
  %13 = load float, ptr addrspace(3) %arrayidx10, align 4, !tbaa !9
  %14 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %15 = trunc i64 %14 to i32
  %conv11 = sitofp i32 %15 to float
  %16 = call float @llvm.fmuladd.f32(float %13, float %conv11, float %acc.1)
  %inc = add nuw nsw i32 %j.0, 1
  br label %for.cond5

for.end:                                          ; preds = %for.cond5
  %acc.1.lcssa = phi float [ %acc.1, %for.cond5 ]
  %slot16 = call ptr @__loom_slot(i64 4, i64 4)
  store float %acc.1.lcssa, ptr %slot16, align 4
  br label %17

17:                                               ; preds = %for.end
  call void @__loom_barrier_id(i32 2)
  br label %18

18:                                               ; preds = %17
  %19 = call ptr @__loom_uvar(i64 0, i64 4)
  %live15 = load i32, ptr %19, align 4
  %slot17 = call ptr @__loom_slot(i64 4, i64 4)
  %live18 = load float, ptr %slot17, align 4
  br label %for.cond

for.cond15:                                       ; preds = %for.cond15.preheader, %for.body18
  %acc.2 = phi float [ %add21, %for.body18 ], [ %acc.0.lcssa, %for.cond15.preheader ]
  %k.1 = phi i32 [ %inc23, %for.body18 ], [ %k.0.lcssa, %for.cond15.preheader ]
  %cmp16 = icmp slt i32 %k.1, %n
  br i1 %cmp16, label %for.body18, label %for.end24

for.body18:                                       ; preds = %for.cond15
  %idxprom19 = zext nneg i32 %k.1 to i64
  %arrayidx20 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom19
  %20 = load float, ptr addrspace(1) %arrayidx20, align 4, !tbaa !9
  %add21 = fadd float %acc.2, %20
  %inc23 = add nuw nsw i32 %k.1, 1
  br label %for.cond15

for.end24:                                        ; preds = %for.cond15
  %acc.2.lcssa = phi float [ %acc.2, %for.cond15 ]
  %21 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #5
  %22 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #5
  %23 = mul i64 %22, %21
  %24 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %25 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #5
  %26 = getelementptr float, ptr addrspace(1) %out, i64 %23
  %27 = getelementptr float, ptr addrspace(1) %26, i64 %24
  %arrayidx26 = getelementptr float, ptr addrspace(1) %27, i64 %25
  store float %acc.2.lcssa, ptr addrspace(1) %arrayidx26, align 4, !tbaa !9
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent noduplicate nounwind
declare dso_local void @__loom_barrier() local_unnamed_addr #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #4

declare ptr addrspace(3) @__loom_local_base()

declare ptr @__loom_slot(i64, i64)

declare void @__loom_barrier_id(i32)

declare ptr @__loom_uslot(i64, i64)

declare ptr @__loom_uvar(i64, i64)

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="2 8 4 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent noduplicate nounwind "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #5 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

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
