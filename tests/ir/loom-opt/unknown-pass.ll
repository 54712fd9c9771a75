; An unknown pass name is a usage error (exit status 2) that lists the
; passes there are.
; RUN-FAIL(2): -passes=inline,no-such-pass
; RUN-FAIL(2): -until=no-such-pass

; CHECK: loom-opt: error: unknown pass 'no-such-pass'; the passes are:
; CHECK-NEXT: link-builtins, lower-printf, {{.*}}, wg-barriers, wg-function, {{.*}}, combine-atomics

define void @f() {
  ret void
}
