; printf("item %d: %f %v4hd\n", i, x, s4) becomes __loom_printf(format,
; records, 3): each argument is stored into a private buffer as a record,
; an 8-byte tag (kind | bytes per element << 8 | element count << 16; kind
; 1 integer, 2 floating point) followed by the elements, each record
; aligned to 8: the int at 8 (tag 0x10401 = 66561), the double at 24 (tag
; 0x10802 = 67586), the short4 at 40 (tag 0x40201 = 262657). The format
; string stays a constant for the runtime to parse.
; RUN: -passes=lower-printf

; CHECK: @.str = private unnamed_addr addrspace(2) constant [19 x i8] c"item %d: %f %v4hd\0A\00"
; CHECK-LABEL: define spir_kernel void @hello(
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[BUF:.*]] = alloca [48 x i8], align 16
; CHECK-NOT: @printf(
; CHECK: %[[T0:.*]] = getelementptr i8, ptr %[[BUF]], i64 0
; CHECK-NEXT: store i64 66561, ptr %[[T0]], align 8
; CHECK-NEXT: %[[E0:.*]] = getelementptr i8, ptr %[[BUF]], i64 8
; CHECK-NEXT: store i32 %i, ptr %[[E0]], align 8
; CHECK-NEXT: %[[T1:.*]] = getelementptr i8, ptr %[[BUF]], i64 16
; CHECK-NEXT: store i64 67586, ptr %[[T1]], align 8
; CHECK-NEXT: %[[E1:.*]] = getelementptr i8, ptr %[[BUF]], i64 24
; CHECK-NEXT: store double %xd, ptr %[[E1]], align 8
; CHECK-NEXT: %[[T2:.*]] = getelementptr i8, ptr %[[BUF]], i64 32
; CHECK-NEXT: store i64 262657, ptr %[[T2]], align 8
; CHECK-NEXT: %[[E2:.*]] = getelementptr i8, ptr %[[BUF]], i64 40
; CHECK-NEXT: store <4 x i16> %s4, ptr %[[E2]], align 8
; CHECK-NEXT: call i32 @__loom_printf(ptr addrspacecast (ptr addrspace(2) @.str to ptr), ptr %[[BUF]], i32 3)
; CHECK-NEXT: ret void
; CHECK-NOT: @printf(

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [19 x i8] c"item %d: %f %v4hd\0A\00", align 1

define spir_kernel void @hello(i32 %i, float %x, <4 x i16> %s4) #0 !kernel_arg_addr_space !0 !kernel_arg_access_qual !1 !kernel_arg_type !2 !kernel_arg_base_type !2 !kernel_arg_type_qual !3 {
entry:
  %xd = fpext float %x to double
  %call = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, i32 %i, double %xd, <4 x i16> %s4)
  ret void
}

declare spir_func i32 @printf(ptr addrspace(2), ...)

attributes #0 = { convergent norecurse nounwind }

!0 = !{i32 0, i32 0, i32 0}
!1 = !{!"none", !"none", !"none"}
!2 = !{!"int", !"float", !"short4"}
!3 = !{!"", !"", !""}
