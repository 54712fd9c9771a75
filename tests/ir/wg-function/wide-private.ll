; A private array indexed by values the work-item computes (OpenCL C:
; float p[32] filled with in[g] + i, then `p[idx] += p[(idx + 7) & 31]` for
; idx stepping through a work-item-dependent sequence, out[g] = p[idx])
; stays an alloca after SROA. The region is vectorised as an outer loop,
; which runs 16 work-items at once: each lane needs its own copy. The array
; becomes 16 columns of a buffer on the work-group function's stack
; (32 floats * 4 bytes * 16 = 2048 bytes, 64-byte aligned), element e of
; the work-item with local id x at byte (e * 16 + x mod 16) * 4: every
; access is rebuilt as offset * 16 + lane * 4, the lifetime markers go, and
; the work-item loop's ID pins the vectorisation width to those 16 lanes
; (workgroup/wide_private.c).
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK-LABEL: define void @k.loom_wg(
; CHECK: %wide_private = alloca [2048 x i8], align 64
; CHECK-NOT: alloca [32 x float]
; CHECK: wi_x:
; CHECK: %[[LANE:.*]] = and i64 %lx, 15
; CHECK: %[[LOFF:.*]] = mul i64 %[[LANE]], 4
; CHECK-NOT: llvm.lifetime
; CHECK: %[[O:.*]] = mul i64 %{{.*}}, 16
; CHECK: %[[A:.*]] = add i64 %[[O]], %[[LOFF]]
; CHECK: %[[P:.*]] = getelementptr i8, ptr %wide_private, i64 %[[A]]
; CHECK: store float %{{.*}}, ptr %[[P]], align 4
; CHECK-NOT: llvm.lifetime
; CHECK: br i1 %{{.*}}, label %wi_x, label %wi_y_latch, !llvm.loop ![[ID:[0-9]+]]
; CHECK: ![[ID]] = distinct !{![[ID]], ![[PAR:[0-9]+]], ![[EN:[0-9]+]], ![[W:[0-9]+]]}
; CHECK: ![[EN]] = !{!"llvm.loop.vectorize.enable", i1 true}
; CHECK: ![[W]] = !{!"llvm.loop.vectorize.width", i32 16}

source_filename = "wide-private.cl"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @k(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, i32 noundef %n) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
entry:
  %p = alloca [32 x float], align 4
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #3
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #3
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #3
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #3
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  call void @llvm.lifetime.start.p0(i64 128, ptr nonnull %p) #4
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 32
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %sext10 = shl i64 %6, 32
  %7 = ashr exact i64 %sext10, 30
  %arrayidx = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %7
  %8 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !9
  %conv2 = uitofp nneg i32 %i.0 to float
  %add = fadd float %8, %conv2
  %idxprom3 = zext nneg i32 %i.0 to i64
  %arrayidx4 = getelementptr inbounds [32 x float], ptr %p, i64 0, i64 %idxprom3
  store float %add, ptr %arrayidx4, align 4, !tbaa !9
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %and = and i32 %conv, 31
  br label %for.cond5

for.cond5:                                        ; preds = %for.body9, %for.end
  %idx.0 = phi i32 [ %and, %for.end ], [ %and11, %for.body9 ]
  %r.0 = phi i32 [ 0, %for.end ], [ %inc20, %for.body9 ]
  %cmp6 = icmp slt i32 %r.0, %n
  br i1 %cmp6, label %for.body9, label %for.end21

for.body9:                                        ; preds = %for.cond5
  %mul = mul nuw nsw i32 %idx.0, 5
  %add10 = add nuw nsw i32 %mul, 3
  %and11 = and i32 %add10, 31
  %add12 = add nuw nsw i32 %mul, 10
  %and13 = and i32 %add12, 31
  %idxprom14 = zext nneg i32 %and13 to i64
  %arrayidx15 = getelementptr inbounds [32 x float], ptr %p, i64 0, i64 %idxprom14
  %9 = load float, ptr %arrayidx15, align 4, !tbaa !9
  %idxprom16 = zext nneg i32 %and11 to i64
  %arrayidx17 = getelementptr inbounds [32 x float], ptr %p, i64 0, i64 %idxprom16
  %10 = load float, ptr %arrayidx17, align 4, !tbaa !9
  %add18 = fadd float %10, %9
  store float %add18, ptr %arrayidx17, align 4, !tbaa !9
  %inc20 = add nuw nsw i32 %r.0, 1
  br label %for.cond5

for.end21:                                        ; preds = %for.cond5
  %idx.0.lcssa = phi i32 [ %idx.0, %for.cond5 ]
  %idxprom22 = zext nneg i32 %idx.0.lcssa to i64
  %arrayidx23 = getelementptr inbounds [32 x float], ptr %p, i64 0, i64 %idxprom22
  %11 = load float, ptr %arrayidx23, align 4, !tbaa !9
  %sext = shl i64 %6, 32
  %12 = ashr exact i64 %sext, 30
  %arrayidx25 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %12
  store float %11, ptr addrspace(1) %arrayidx25, align 4, !tbaa !9
  call void @llvm.lifetime.end.p0(i64 128, ptr nonnull %p) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #2

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }
attributes #4 = { nounwind }

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
!7 = !{!"float*", !"float*", !"int"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
