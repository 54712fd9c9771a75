; wg-function keeps a kernel's OpenCL vectors whole (attribute
; "loom-whole-vectors": scalarize-vectors leaves it alone, no outer-loop
; vectorisation) where one work-item at a time on whole vectors is
; estimated faster than split across work-items (vectorize/whole_vectors.c).
; From OpenCL C (tests/ir/make-input.sh, then loom-opt -until=wg-barriers):
;  - bw16: float16 reads in a loop of 4 (clpeak's bandwidth kernel): whole;
;  - chain16: float16 multiply-add chains, 8 x 8 a work-item (clpeak's
;    compute kernel): split, its work-items' chains side by side;
;  - bw4: float4 reads, 16 a work-item as in bw16, memory-bound: whole;
;  - bw2: the same with float2: split (whole code reading 8 bytes a work-item
;    from each of 16 streams gets less from memory);
;  - gemm4: a float4 multiply-add per read, its chain as long as the run-time
;    trip count, b[] the same along x (from the cache): split;
;  - axpy4: y = a x + y on float4s, straight-line and memory-bound: whole.
; RUN: -passes=wg-function -mattr=+avx2,+fma,+avx512f,+avx512vl

; CHECK: define void @bw16.loom_wg({{.*}}) #[[WHOLE:[0-9]+]]
; CHECK: define void @chain16.loom_wg({{.*}}) #[[SPLIT:[0-9]+]]
; CHECK: define void @bw4.loom_wg({{.*}}) #[[WHOLE]]
; CHECK: define void @bw2.loom_wg({{.*}}) #[[SPLIT]]
; CHECK: define void @gemm4.loom_wg({{.*}}) #[[SPLIT]]
; CHECK: define void @axpy4.loom_wg({{.*}}) #[[WHOLE]]
; CHECK: attributes #[[WHOLE]] = { {{.*}}"loom-whole-vectors"="1"
; CHECK-NOT: loom-outer-loops
; CHECK-SAME: }
; CHECK: attributes #[[SPLIT]] = { {{.*}}"loom-outer-loops"="1"
; CHECK-NOT: loom-whole-vectors
; CHECK-SAME: }

; ModuleID = '/tmp/s19/whole_fe.ll'
source_filename = "/tmp/s19/whole.cl"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @bw16(ptr addrspace(1) noundef align 64 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %stride) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %id.0 = phi i32 [ %conv, %entry ], [ %add2, %for.body ]
  %s.0 = phi <16 x float> [ zeroinitializer, %entry ], [ %add, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 4
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = sext i32 %id.0 to i64
  %arrayidx = getelementptr inbounds <16 x float>, ptr addrspace(1) %a, i64 %idxprom
  %7 = load <16 x float>, ptr addrspace(1) %arrayidx, align 64, !tbaa !10
  %add = fadd <16 x float> %s.0, %7
  %add2 = add nsw i32 %id.0, %stride
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %s.0.lcssa = phi <16 x float> [ %s.0, %for.cond ]
  %8 = extractelement <16 x float> %s.0.lcssa, i64 0
  %9 = extractelement <16 x float> %s.0.lcssa, i64 5
  %add3 = fadd float %8, %9
  %10 = extractelement <16 x float> %s.0.lcssa, i64 10
  %add4 = fadd float %add3, %10
  %11 = extractelement <16 x float> %s.0.lcssa, i64 15
  %add5 = fadd float %add4, %11
  %12 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %13 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %14 = mul i64 %13, %12
  %15 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %16 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %17 = getelementptr float, ptr addrspace(1) %out, i64 %14
  %18 = getelementptr float, ptr addrspace(1) %17, i64 %15
  %arrayidx7 = getelementptr float, ptr addrspace(1) %18, i64 %16
  store float %add5, ptr addrspace(1) %arrayidx7, align 4, !tbaa !13
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @chain16(ptr addrspace(1) noundef align 4 %out, float noundef %x0) #0 !kernel_arg_addr_space !15 !kernel_arg_access_qual !16 !kernel_arg_type !17 !kernel_arg_base_type !17 !kernel_arg_type_qual !18 {
entry:
  %splat.splatinsert = insertelement <16 x float> poison, float %x0, i64 0
  %splat.splat = shufflevector <16 x float> %splat.splatinsert, <16 x float> poison, <16 x i32> zeroinitializer
  %0 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %conv = uitofp i64 %0 to float
  %splat.splatinsert1 = insertelement <16 x float> poison, float %conv, i64 0
  %splat.splat2 = shufflevector <16 x float> %splat.splatinsert1, <16 x float> poison, <16 x i32> zeroinitializer
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %x.0 = phi <16 x float> [ %splat.splat, %entry ], [ %7, %for.body ]
  %y.0 = phi <16 x float> [ %splat.splat2, %entry ], [ %8, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 8
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %1 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %y.0, <16 x float> %x.0, <16 x float> %y.0)
  %2 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %1, <16 x float> %y.0, <16 x float> %1)
  %3 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %2, <16 x float> %1, <16 x float> %2)
  %4 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %3, <16 x float> %2, <16 x float> %3)
  %5 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %4, <16 x float> %3, <16 x float> %4)
  %6 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %5, <16 x float> %4, <16 x float> %5)
  %7 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %6, <16 x float> %5, <16 x float> %6)
  %8 = call noundef <16 x float> @llvm.fmuladd.v16f32(<16 x float> %7, <16 x float> %6, <16 x float> %7)
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %y.0.lcssa = phi <16 x float> [ %y.0, %for.cond ]
  %9 = extractelement <16 x float> %y.0.lcssa, i64 0
  %10 = extractelement <16 x float> %y.0.lcssa, i64 15
  %add = fadd float %9, %10
  %11 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %12 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %13 = mul i64 %12, %11
  %14 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %15 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %16 = getelementptr float, ptr addrspace(1) %out, i64 %13
  %17 = getelementptr float, ptr addrspace(1) %16, i64 %14
  %arrayidx = getelementptr float, ptr addrspace(1) %17, i64 %15
  store float %add, ptr addrspace(1) %arrayidx, align 4, !tbaa !13
  ret void
}

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @bw4(ptr addrspace(1) noundef align 16 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %stride) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !19 !kernel_arg_base_type !20 !kernel_arg_type_qual !9 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %id.0 = phi i32 [ %conv, %entry ], [ %add14, %for.body ]
  %s.0 = phi <4 x float> [ zeroinitializer, %entry ], [ %add13, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 4
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = sext i32 %id.0 to i64
  %arrayidx = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idxprom
  %7 = load <4 x float>, ptr addrspace(1) %arrayidx, align 16, !tbaa !10
  %add = fadd <4 x float> %s.0, %7
  %add2 = add nsw i32 %id.0, %stride
  %idxprom3 = sext i32 %add2 to i64
  %arrayidx4 = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idxprom3
  %8 = load <4 x float>, ptr addrspace(1) %arrayidx4, align 16, !tbaa !10
  %add5 = fadd <4 x float> %add, %8
  %add6 = add nsw i32 %add2, %stride
  %idxprom7 = sext i32 %add6 to i64
  %arrayidx8 = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idxprom7
  %9 = load <4 x float>, ptr addrspace(1) %arrayidx8, align 16, !tbaa !10
  %add9 = fadd <4 x float> %add5, %9
  %add10 = add nsw i32 %add6, %stride
  %idxprom11 = sext i32 %add10 to i64
  %arrayidx12 = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idxprom11
  %10 = load <4 x float>, ptr addrspace(1) %arrayidx12, align 16, !tbaa !10
  %add13 = fadd <4 x float> %add9, %10
  %add14 = add nsw i32 %add10, %stride
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %s.0.lcssa = phi <4 x float> [ %s.0, %for.cond ]
  %11 = extractelement <4 x float> %s.0.lcssa, i64 0
  %12 = extractelement <4 x float> %s.0.lcssa, i64 1
  %add15 = fadd float %11, %12
  %13 = extractelement <4 x float> %s.0.lcssa, i64 2
  %add16 = fadd float %add15, %13
  %14 = extractelement <4 x float> %s.0.lcssa, i64 3
  %add17 = fadd float %add16, %14
  %15 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %16 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %17 = mul i64 %16, %15
  %18 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %19 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %20 = getelementptr float, ptr addrspace(1) %out, i64 %17
  %21 = getelementptr float, ptr addrspace(1) %20, i64 %18
  %arrayidx19 = getelementptr float, ptr addrspace(1) %21, i64 %19
  store float %add17, ptr addrspace(1) %arrayidx19, align 4, !tbaa !13
  ret void
}

define dso_local void @bw2(ptr addrspace(1) noundef align 8 %a, ptr addrspace(1) noundef align 4 %out, i32 noundef %stride) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !28 !kernel_arg_base_type !29 !kernel_arg_type_qual !9 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %id.0 = phi i32 [ %conv, %entry ], [ %add14, %for.body ]
  %s.0 = phi <2 x float> [ zeroinitializer, %entry ], [ %add13, %for.body ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp ult i32 %i.0, 4
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = sext i32 %id.0 to i64
  %arrayidx = getelementptr inbounds <2 x float>, ptr addrspace(1) %a, i64 %idxprom
  %7 = load <2 x float>, ptr addrspace(1) %arrayidx, align 8, !tbaa !10
  %add = fadd <2 x float> %s.0, %7
  %add2 = add nsw i32 %id.0, %stride
  %idxprom3 = sext i32 %add2 to i64
  %arrayidx4 = getelementptr inbounds <2 x float>, ptr addrspace(1) %a, i64 %idxprom3
  %8 = load <2 x float>, ptr addrspace(1) %arrayidx4, align 8, !tbaa !10
  %add5 = fadd <2 x float> %add, %8
  %add6 = add nsw i32 %add2, %stride
  %idxprom7 = sext i32 %add6 to i64
  %arrayidx8 = getelementptr inbounds <2 x float>, ptr addrspace(1) %a, i64 %idxprom7
  %9 = load <2 x float>, ptr addrspace(1) %arrayidx8, align 8, !tbaa !10
  %add9 = fadd <2 x float> %add5, %9
  %add10 = add nsw i32 %add6, %stride
  %idxprom11 = sext i32 %add10 to i64
  %arrayidx12 = getelementptr inbounds <2 x float>, ptr addrspace(1) %a, i64 %idxprom11
  %10 = load <2 x float>, ptr addrspace(1) %arrayidx12, align 8, !tbaa !10
  %add13 = fadd <2 x float> %add9, %10
  %add14 = add nsw i32 %add10, %stride
  %inc = add nuw nsw i32 %i.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %s.0.lcssa = phi <2 x float> [ %s.0, %for.cond ]
  %11 = extractelement <2 x float> %s.0.lcssa, i64 0
  %12 = extractelement <2 x float> %s.0.lcssa, i64 1
  %add15 = fadd float %11, %12
  %15 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %16 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %17 = mul i64 %16, %15
  %18 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %19 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %20 = getelementptr float, ptr addrspace(1) %out, i64 %17
  %21 = getelementptr float, ptr addrspace(1) %20, i64 %18
  %arrayidx19 = getelementptr float, ptr addrspace(1) %21, i64 %19
  store float %add15, ptr addrspace(1) %arrayidx19, align 4, !tbaa !13
  ret void
}

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @gemm4(ptr addrspace(1) noundef align 16 %a, ptr addrspace(1) noundef align 4 %b, ptr addrspace(1) noundef align 16 %c, i32 noundef %k_end) #0 !kernel_arg_addr_space !21 !kernel_arg_access_qual !22 !kernel_arg_type !23 !kernel_arg_base_type !24 !kernel_arg_type_qual !25 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %conv = trunc i64 %6 to i32
  %7 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 1) #4
  %8 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 1) #4
  %9 = mul i64 %8, %7
  %10 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 1) #4
  %11 = add i64 %9, %10
  %12 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 1) #4
  %13 = add i64 %11, %12
  %conv2 = trunc i64 %13 to i32
  br label %for.cond

for.cond:                                         ; preds = %for.body, %entry
  %acc.0 = phi <4 x float> [ zeroinitializer, %entry ], [ %16, %for.body ]
  %k.0 = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %cmp = icmp slt i32 %k.0, %k_end
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %mul = shl nsw i32 %k.0, 6
  %add = add nsw i32 %mul, %conv
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idxprom
  %14 = load <4 x float>, ptr addrspace(1) %arrayidx, align 16, !tbaa !10
  %mul4 = shl nsw i32 %k.0, 3
  %add5 = add nsw i32 %mul4, %conv2
  %idxprom6 = sext i32 %add5 to i64
  %arrayidx7 = getelementptr inbounds float, ptr addrspace(1) %b, i64 %idxprom6
  %15 = load float, ptr addrspace(1) %arrayidx7, align 4, !tbaa !13
  %splat.splatinsert = insertelement <4 x float> poison, float %15, i64 0
  %splat.splat = shufflevector <4 x float> %splat.splatinsert, <4 x float> poison, <4 x i32> zeroinitializer
  %16 = call noundef <4 x float> @llvm.fmuladd.v4f32(<4 x float> %14, <4 x float> %splat.splat, <4 x float> %acc.0)
  %inc = add nuw nsw i32 %k.0, 1
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %acc.0.lcssa = phi <4 x float> [ %acc.0, %for.cond ]
  %mul9 = shl nsw i32 %conv2, 6
  %add10 = add nsw i32 %mul9, %conv
  %idxprom11 = sext i32 %add10 to i64
  %arrayidx12 = getelementptr inbounds <4 x float>, ptr addrspace(1) %c, i64 %idxprom11
  store <4 x float> %acc.0.lcssa, ptr addrspace(1) %arrayidx12, align 16, !tbaa !10
  ret void
}

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local void @axpy4(ptr addrspace(1) noundef align 16 %x, ptr addrspace(1) noundef align 16 %y, float noundef %a) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !26 !kernel_arg_base_type !27 !kernel_arg_type_qual !9 {
entry:
  %0 = call i64 @__loom_wi(i32 noundef 0, i32 noundef 0) #4
  %1 = call i64 @__loom_wi(i32 noundef 2, i32 noundef 0) #4
  %2 = mul i64 %1, %0
  %3 = call i64 @__loom_wi(i32 noundef 7, i32 noundef 0) #4
  %4 = add i64 %2, %3
  %5 = call i64 @__loom_wi(i32 noundef 3, i32 noundef 0) #4
  %6 = add i64 %4, %5
  %splat.splatinsert = insertelement <4 x float> poison, float %a, i64 0
  %splat.splat = shufflevector <4 x float> %splat.splatinsert, <4 x float> poison, <4 x i32> zeroinitializer
  %arrayidx = getelementptr inbounds <4 x float>, ptr addrspace(1) %x, i64 %6
  %7 = load <4 x float>, ptr addrspace(1) %arrayidx, align 16, !tbaa !10
  %arrayidx1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %y, i64 %6
  %8 = load <4 x float>, ptr addrspace(1) %arrayidx1, align 16, !tbaa !10
  %9 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %splat.splat, <4 x float> %7, <4 x float> %8)
  store <4 x float> %9, ptr addrspace(1) %arrayidx1, align 16, !tbaa !10
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <16 x float> @llvm.fmuladd.v16f32(<16 x float>, <16 x float>, <16 x float>) #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local i64 @__loom_wi(i32 noundef, i32 noundef) local_unnamed_addr #3

attributes #0 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "loom-wg-slots"="0 0 0 0 0 0 0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
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
!5 = !{i32 1, i32 1, i32 0}
!6 = !{!"none", !"none", !"none"}
!7 = !{!"float16*", !"float*", !"int"}
!8 = !{!"float __attribute__((ext_vector_type(16)))*", !"float*", !"int"}
!9 = !{!"const", !"", !""}
!10 = !{!11, !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !11, i64 0}
!15 = !{i32 1, i32 0}
!16 = !{!"none", !"none"}
!17 = !{!"float*", !"float"}
!18 = !{!"", !""}
!19 = !{!"float4*", !"float*", !"int"}
!20 = !{!"float __attribute__((ext_vector_type(4)))*", !"float*", !"int"}
!21 = !{i32 1, i32 1, i32 1, i32 0}
!22 = !{!"none", !"none", !"none", !"none"}
!23 = !{!"float4*", !"float*", !"float4*", !"int"}
!24 = !{!"float __attribute__((ext_vector_type(4)))*", !"float*", !"float __attribute__((ext_vector_type(4)))*", !"int"}
!25 = !{!"const", !"const", !"", !""}
!26 = !{!"float4*", !"float4*", !"float"}
!27 = !{!"float __attribute__((ext_vector_type(4)))*", !"float __attribute__((ext_vector_type(4)))*", !"float"}
!28 = !{!"float2*", !"float*", !"int"}
!29 = !{!"float __attribute__((ext_vector_type(2)))*", !"float*", !"int"}
