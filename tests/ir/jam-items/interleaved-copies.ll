; After unroll-and-jam, the copies of the inner loop body come one after the
; other; jam-items then orders each one-block loop of the work-group
; function by depth (vectorize/chain_order.c), so the copies' chains
; alternate step by step and the out-of-order core sees them side by side
; (clpeak's half kernel: 61 -> 118 GFLOP/s). Same input as chain.ll: step 1
; of copy 0, step 1 of copy 1, step 2 of copy 0, step 2 of copy 1, ...
; The kernel's own loop (not in a work-group function) keeps its order.
; RUN: -passes=jam-items -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define internal void @chain(
; CHECK: [[K1:%[0-9]+]] = call noundef float @llvm.fmuladd.f32(
; CHECK-NEXT: call noundef float @llvm.fmuladd.f32(float [[K1]],
; CHECK-LABEL: define void @chain.loom_wg(
; CHECK: [[A:%[0-9]+]] = call noundef float @llvm.fmuladd.f32(float [[Y:%y[.0-9i]+]], float [[X:%x[.0-9i]+]], float [[Y]])
; CHECK-NOT: fmuladd
; CHECK: [[B:%[0-9]+]] = call noundef float @llvm.fmuladd.f32(float [[Y]].1, float [[X]].1, float [[Y]].1)
; CHECK-NOT: fmuladd
; CHECK: [[A2:%[0-9]+]] = call noundef float @llvm.fmuladd.f32(float [[A]], float [[Y]], float [[A]])
; CHECK-NEXT: [[B2:%[0-9]+]] = call noundef float @llvm.fmuladd.f32(float [[B]], float [[Y]].1, float [[B]])
; CHECK-NOT: fmuladd
; CHECK: call noundef float @llvm.fmuladd.f32(float [[A2]], float [[A]], float [[A2]])
; CHECK-NEXT: call noundef float @llvm.fmuladd.f32(float [[B2]], float [[B]], float [[B2]])

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define internal void @chain(ptr addrspace(1) noundef align 4 %out, float noundef %a) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %conv = uitofp i64 %0 to float
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %x.0 = phi float [ %a, %entry ], [ %3, %for.body ]
  %y.0 = phi float [ %conv, %entry ], [ %4, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 64
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %1 = call noundef float @llvm.fmuladd.f32(float %y.0, float %x.0, float %y.0)
  %2 = call noundef float @llvm.fmuladd.f32(float %1, float %y.0, float %1)
  %3 = call noundef float @llvm.fmuladd.f32(float %2, float %1, float %2)
  %4 = call noundef float @llvm.fmuladd.f32(float %3, float %2, float %3)
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %y.0.lcssa = phi float [ %y.0, %for.cond ]
  %5 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #5
  %6 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #5
  %7 = mul i64 %6, %5
  %8 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #5
  %9 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #5
  %10 = getelementptr float, ptr addrspace(1) %out, i64 %7
  %11 = getelementptr float, ptr addrspace(1) %10, i64 %8
  %arrayidx = getelementptr float, ptr addrspace(1) %11, i64 %9
  store float %y.0.lcssa, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

declare ptr @__loom_slot_base(i64)

; Function Attrs: nounwind
define void @chain.loom_wg(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3) #4 {
entry:
  %4 = getelementptr i8, ptr %1, i64 0
  %wi = load i64, ptr %4, align 8
  %5 = getelementptr i8, ptr %1, i64 8
  %wi16 = load i64, ptr %5, align 8
  %6 = getelementptr i8, ptr %1, i64 16
  %wi17 = load i64, ptr %6, align 8
  %7 = getelementptr i8, ptr %1, i64 24
  %wi18 = load i64, ptr %7, align 8
  %8 = getelementptr i8, ptr %1, i64 32
  %wi19 = load i64, ptr %8, align 8
  %9 = getelementptr i8, ptr %1, i64 40
  %wi20 = load i64, ptr %9, align 8
  %10 = getelementptr i8, ptr %1, i64 48
  %wi21 = load i64, ptr %10, align 8
  %11 = getelementptr i8, ptr %1, i64 56
  %wi22 = load i64, ptr %11, align 8
  %12 = getelementptr i8, ptr %1, i64 64
  %wi23 = load i64, ptr %12, align 8
  %13 = getelementptr i8, ptr %1, i64 72
  %wi24 = load i64, ptr %13, align 8
  %14 = getelementptr i8, ptr %1, i64 80
  %wi25 = load i64, ptr %14, align 8
  %15 = getelementptr i8, ptr %1, i64 88
  %wi26 = load i64, ptr %15, align 8
  %16 = getelementptr i8, ptr %1, i64 96
  %wi27 = load i64, ptr %16, align 8
  %17 = getelementptr i8, ptr %1, i64 104
  %wi28 = load i64, ptr %17, align 8
  %18 = getelementptr i8, ptr %1, i64 112
  %wi29 = load i64, ptr %18, align 8
  %19 = getelementptr i8, ptr %1, i64 120
  %wi30 = load i64, ptr %19, align 8
  %20 = getelementptr i8, ptr %1, i64 128
  %wi31 = load i64, ptr %20, align 8
  %21 = getelementptr i8, ptr %1, i64 136
  %wi32 = load i64, ptr %21, align 8
  %22 = getelementptr i8, ptr %1, i64 144
  %wi33 = load i64, ptr %22, align 8
  %23 = getelementptr i8, ptr %1, i64 144
  %wi34 = load i64, ptr %23, align 8
  %24 = getelementptr i8, ptr %1, i64 144
  %wi35 = load i64, ptr %24, align 8
  %25 = mul i64 %wi18, %wi19
  %items = mul i64 %25, %wi20
  %26 = addrspacecast ptr %2 to ptr addrspace(3)
  %27 = mul i64 %items, 0
  %28 = add i64 %27, 63
  %29 = and i64 %28, -64
  %local_base = ptrtoint ptr %2 to i64
  %30 = getelementptr i8, ptr %1, i64 168
  %local_size = load i64, ptr %30, align 8
  %31 = getelementptr i8, ptr %1, i64 176
  %stack_lo = load i64, ptr %31, align 8
  %32 = getelementptr i8, ptr %1, i64 184
  %stack_hi = load i64, ptr %32, align 8
  %scratch_base = ptrtoint ptr %3 to i64
  %scratch_size = add i64 %29, 0
  %33 = getelementptr i8, ptr %1, i64 24
  %lsize = load i64, ptr %33, align 8
  %34 = getelementptr i8, ptr %1, i64 32
  %lsize1 = load i64, ptr %34, align 8
  %35 = getelementptr i8, ptr %1, i64 40
  %lsize2 = load i64, ptr %35, align 8
  %36 = getelementptr i8, ptr %0, i64 0
  %arg = load ptr addrspace(1), ptr %36, align 8
  %37 = getelementptr i8, ptr %0, i64 8
  %arg3 = load float, ptr %37, align 4
  %38 = mul i64 %lsize, %lsize1
  %39 = mul i64 %38, %lsize2
  %40 = mul i64 %39, 0
  %41 = add i64 %40, 63
  %42 = and i64 %41, -64
  %uniform_slots = getelementptr i8, ptr %3, i64 %42
  %uniform_snapshot = alloca [1 x i8], align 64
  %next = alloca i32, align 4
  store i32 0, ptr %next, align 4
  %prev_region = alloca i32, align 4
  store i32 -1, ptr %prev_region, align 4
  %again = alloca i1, align 1
  %later = alloca i32, align 4
  br label %dispatch

dispatch:                                         ; preds = %wi_z_latch, %entry
  %43 = load i32, ptr %next, align 4
  switch i32 %43, label %done [
    i32 0, label %region
  ]

done:                                             ; preds = %dispatch
  ret void

region:                                           ; preds = %dispatch
  br label %wi_z

wi_z:                                             ; preds = %wi_z_latch, %region
  %lz = phi i64 [ 0, %region ], [ %58, %wi_z_latch ]
  br label %wi_y

wi_y:                                             ; preds = %wi_y_latch, %wi_z
  %ly = phi i64 [ 0, %wi_z ], [ %56, %wi_y_latch ]
  %44 = mul i64 %lz, %lsize1
  %45 = add i64 %44, %ly
  %row = mul i64 %45, %lsize
  %wide_end = and i64 %lsize, -128
  %46 = icmp ne i64 %wide_end, 0
  br i1 %46, label %wi_x, label %wi_x_rest

wi_x:                                             ; preds = %chain.loom_region0.exit15, %wi_y
  %lx = phi i64 [ 0, %wi_y ], [ %54, %chain.loom_region0.exit15 ]
  %linear = add i64 %row, %lx
  %conv.i.i6 = uitofp i64 %lx to float
  br label %for.cond.i.i7

for.cond.i.i7:                                    ; preds = %for.body.i.i13, %wi_x
  %x.0.i.i8 = phi float [ %arg3, %wi_x ], [ %49, %for.body.i.i13 ]
  %y.0.i.i9 = phi float [ %conv.i.i6, %wi_x ], [ %50, %for.body.i.i13 ]
  %i.0.i.i10 = phi i32 [ 0, %wi_x ], [ %inc.i.i14, %for.body.i.i13 ]
  %cmp.i.i11 = icmp ult i32 %i.0.i.i10, 64
  br i1 %cmp.i.i11, label %for.body.i.i13, label %chain.loom_region0.exit15

for.body.i.i13:                                   ; preds = %for.cond.i.i7
  %47 = call noundef float @llvm.fmuladd.f32(float %y.0.i.i9, float %x.0.i.i8, float %y.0.i.i9)
  %48 = call noundef float @llvm.fmuladd.f32(float %47, float %y.0.i.i9, float %47)
  %49 = call noundef float @llvm.fmuladd.f32(float %48, float %47, float %48)
  %50 = call noundef float @llvm.fmuladd.f32(float %49, float %48, float %49)
  %inc.i.i14 = add nuw nsw i32 %i.0.i.i10, 1
  br label %for.cond.i.i7

chain.loom_region0.exit15:                        ; preds = %for.cond.i.i7
  %51 = mul i64 %wi21, %wi
  %52 = getelementptr float, ptr addrspace(1) %arg, i64 %51
  %53 = getelementptr float, ptr addrspace(1) %52, i64 %lx
  %arrayidx.i.i12 = getelementptr float, ptr addrspace(1) %53, i64 %wi24
  store float %y.0.i.i9, ptr addrspace(1) %arrayidx.i.i12, align 4, !tbaa !9, !llvm.access.group !13
  store i32 -1, ptr %next, align 4
  %54 = add i64 %lx, 1
  %55 = icmp ult i64 %54, %wide_end
  br i1 %55, label %wi_x, label %wi_x_rest, !llvm.loop !14

wi_y_latch:                                       ; preds = %chain.loom_region0.exit, %wi_x_rest
  %56 = add i64 %ly, 1
  %57 = icmp ult i64 %56, %lsize1
  br i1 %57, label %wi_y, label %wi_z_latch

wi_z_latch:                                       ; preds = %wi_y_latch
  %58 = add i64 %lz, 1
  %59 = icmp ult i64 %58, %lsize2
  br i1 %59, label %wi_z, label %dispatch

wi_x_rest:                                        ; preds = %chain.loom_region0.exit15, %wi_y
  %60 = icmp ult i64 %wide_end, %lsize
  br i1 %60, label %wi_x_tail, label %wi_y_latch

wi_x_tail:                                        ; preds = %chain.loom_region0.exit, %wi_x_rest
  %lx4 = phi i64 [ %wide_end, %wi_x_rest ], [ %68, %chain.loom_region0.exit ]
  %linear5 = add i64 %row, %lx4
  %conv.i.i = uitofp i64 %lx4 to float
  br label %for.cond.i.i

for.cond.i.i:                                     ; preds = %for.body.i.i, %wi_x_tail
  %x.0.i.i = phi float [ %arg3, %wi_x_tail ], [ %63, %for.body.i.i ]
  %y.0.i.i = phi float [ %conv.i.i, %wi_x_tail ], [ %64, %for.body.i.i ]
  %i.0.i.i = phi i32 [ 0, %wi_x_tail ], [ %inc.i.i, %for.body.i.i ]
  %cmp.i.i = icmp ult i32 %i.0.i.i, 64
  br i1 %cmp.i.i, label %for.body.i.i, label %chain.loom_region0.exit

for.body.i.i:                                     ; preds = %for.cond.i.i
  %61 = call noundef float @llvm.fmuladd.f32(float %y.0.i.i, float %x.0.i.i, float %y.0.i.i)
  %62 = call noundef float @llvm.fmuladd.f32(float %61, float %y.0.i.i, float %61)
  %63 = call noundef float @llvm.fmuladd.f32(float %62, float %61, float %62)
  %64 = call noundef float @llvm.fmuladd.f32(float %63, float %62, float %63)
  %inc.i.i = add nuw nsw i32 %i.0.i.i, 1
  br label %for.cond.i.i

chain.loom_region0.exit:                          ; preds = %for.cond.i.i
  %65 = mul i64 %wi21, %wi
  %66 = getelementptr float, ptr addrspace(1) %arg, i64 %65
  %67 = getelementptr float, ptr addrspace(1) %66, i64 %lx4
  %arrayidx.i.i = getelementptr float, ptr addrspace(1) %67, i64 %wi24
  store float %y.0.i.i, ptr addrspace(1) %arrayidx.i.i, align 4, !tbaa !9, !llvm.access.group !13
  store i32 -1, ptr %next, align 4
  %68 = add i64 %lx4, 1
  %69 = icmp ult i64 %68, %lsize
  br i1 %69, label %wi_x_tail, label %wi_y_latch, !llvm.loop !19
}

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { nounwind "loom-jam-loops"="1" "loom-outer-loops"="1" "prefer-vector-width"="512" "reciprocal-estimates"="!divf,!vec-divf,!divd,!vec-divd" }
attributes #5 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!opencl.spir.version = !{!2, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3, !3}
!llvm.ident = !{!4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4, !4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 3, i32 0}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, i32 0}
!6 = !{!"none", !"none"}
!7 = !{!"float*", !"float"}
!8 = !{!"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = distinct !{}
!14 = distinct !{!14, !15, !16, !17, !18}
!15 = !{!"llvm.loop.parallel_accesses", !13}
!16 = !{!"llvm.loop.vectorize.enable", i1 true}
!17 = !{!"llvm.loop.vectorize.width", i32 64}
!18 = !{!"llvm.loop.unroll_and_jam.count", i32 2}
!19 = distinct !{!19, !15, !16}
