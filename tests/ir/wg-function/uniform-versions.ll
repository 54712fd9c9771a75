; A region that stops at one barrier but branches inside its loop on a
; group-uniform test (OpenCL C: for (j < n) { if (mode & 1) acc += a[j * 64
; + l]; else acc -= a[l * n + j]; } t[l] = acc; barrier; ...): the branch
; kept the region's work-item loop from vectorising (CLBlast's float4 tile
; copy under `if (a_ld % VWMD == 0)`). Region 0 gets a copy with the test's
; branch folded to its true side (".uniform", no branch in its loop) and
; keeps itself as the version for the test false; the work-group function
; computes the test once and picks (workgroup/region_versions.c). Region 1
; has no loop: no versions.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @uni.loom_wg(
; CHECK: [[R0:region[0-9]*]]:
; CHECK-NEXT: %[[M:[0-9]+]] = and i32 %arg5, 1
; CHECK-NEXT: %[[T:[0-9]+]] = icmp eq i32 %[[M]], 0
; CHECK-NEXT: br i1 %[[T]], label %region_true, label %region_false
; CHECK-NOT: region_true{{[0-9]+}}:
; CHECK: wi_x:
; CHECK-NOT: if.then
; CHECK: uni.loom_region0.uniform.exit:
; CHECK: wi_x{{[0-9]+}}:
; CHECK: if.then.i.i:
; CHECK: uni.loom_region0.exit:
; CHECK-NOT: region_true

; ModuleID = 'uni_fe.ll'
source_filename = "uni.cl"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@uni.t = internal addrspace(3) global [64 x float] undef, align 4

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @uni(ptr addrspace(1) noundef align 4 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %n, i32 noundef %mode) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %local = call ptr addrspace(3) @__loom_local_base()
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = trunc i64 %0 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %acc.0 = phi float [ 0.000000e+00, %entry ], [ %acc.1, %for.inc ]
  %j.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %j.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %and = and i32 %mode, 1
  %tobool.not = icmp eq i32 %and, 0
  br i1 %tobool.not, label %if.else, label %if.then

if.then:                                          ; preds = %for.body
  %mul = shl nsw i32 %j.0, 6
  %add = add nsw i32 %mul, %conv
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom
  %1 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %add2 = fadd float %acc.0, %1
  br label %for.inc

if.else:                                          ; preds = %for.body
  %mul3 = mul nsw i32 %conv, %n
  %add4 = add nsw i32 %mul3, %j.0
  %idxprom5 = sext i32 %add4 to i64
  %arrayidx6 = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idxprom5
  %2 = load float, ptr addrspace(1) %arrayidx6, align 4, !tbaa !9
  %sub = fsub float %acc.0, %2
  br label %for.inc

for.inc:                                          ; preds = %if.then, %if.else
  %acc.1 = phi float [ %add2, %if.then ], [ %sub, %if.else ]
  %inc = add nuw nsw i32 %j.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %acc.0.lcssa = phi float [ %acc.0, %for.cond ]
  %sext = shl i64 %0, 32
  %idxprom7 = ashr exact i64 %sext, 32
  %3 = getelementptr i8, ptr addrspace(3) %local, i64 0
  %arrayidx8 = getelementptr inbounds [64 x float], ptr addrspace(3) %3, i64 0, i64 %idxprom7
  store float %acc.0.lcssa, ptr addrspace(3) %arrayidx8, align 4, !tbaa !9
  br label %4

4:                                                ; preds = %for.end
  call void @__loom_barrier_id(i32 1)
  br label %5

5:                                                ; preds = %4
  %6 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %7 = shl i64 %6, 32
  %sext11 = sub i64 270582939648, %7
  %idxprom10 = ashr exact i64 %sext11, 32
  %8 = call ptr addrspace(3) @__loom_local_base()
  %9 = getelementptr i8, ptr addrspace(3) %8, i64 0
  %arrayidx11 = getelementptr inbounds [64 x float], ptr addrspace(3) %9, i64 0, i64 %idxprom10
  %10 = load float, ptr addrspace(3) %arrayidx11, align 4, !tbaa !9
  %11 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %12 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %13 = mul i64 %12, %11
  %14 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %15 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %16 = getelementptr float, ptr addrspace(1) %out, i64 %13
  %17 = getelementptr float, ptr addrspace(1) %16, i64 %14
  %arrayidx13 = getelementptr float, ptr addrspace(1) %17, i64 %15
  store float %10, ptr addrspace(1) %arrayidx13, align 4, !tbaa !9
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
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 1, i32 0, i32 0}
!6 = !{!"none", !"none", !"none", !"none"}
!7 = !{!"float*", !"float*", !"int", !"int"}
!8 = !{!"const", !"", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
