; -list prints every pass of src/compiler/pipeline.c in order: index, name,
; stage (build: inside clBuildProgram; codegen: on a compile thread) and
; what it does.
; RUN: -list

; CHECK: {{^ *}}0  lower-opaque-types {{ *}}build    image and sampler types become
; CHECK-NEXT: {{^ *}}1  link-builtins {{ *}}build    links the builtin library
; CHECK-NEXT: {{^ *}}2  lower-printf {{ *}}build    printf calls become __loom_printf
; CHECK: {{^ *}}[[#]]  wg-barriers {{ *}}build
; CHECK-NEXT: {{^ *}}[[#]]  wg-function {{ *}}build
; CHECK: {{^ *}}[[#]]  vector-variants {{ *}}build
; CHECK-NEXT: {{^ *}}[[#]]  mark-rsqrt {{ *}}codegen
; CHECK: {{^ *}}[[#]]  O3 {{ *}}codegen
; CHECK: {{^ *}}[[#]]  combine-atomics {{ *}}codegen
; CHECK-NEXT: {{^ *}}[[#]]  shift-lanes {{ *}}codegen {{.*$}}
; CHECK-NOT: {{.}}

define void @f() {
  ret void
}
