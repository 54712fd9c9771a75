; An image inside an aggregate (OpenCL C forbids it; IR from elsewhere may
; have it) is a build error with a message, never a crash or a module
; with a half-lowered type.
; RUN-FAIL(1): -passes=lower-opaque-types | --check-prefix=ERR
; ERR: unsupported use of an image or sampler value

target triple = "spir64-unknown-unknown"

define spir_kernel void @k(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, ptr %out) {
entry:
  %agg = insertvalue { target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) } poison, target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %img, 0
  ret void
}
