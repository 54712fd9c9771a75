/* Bit casts and the fused multiply-add shared by the math builtins. */
#ifndef LOOM_MATH_BITS_H
#define LOOM_MATH_BITS_H

#define FMA(a, b, c) __builtin_elementwise_fma((a), (b), (c))
#define AS_D(x) __builtin_astype((x), double)
#define AS_UL(x) __builtin_astype((x), ulong)
#define AS_F(x) __builtin_astype((x), float)
#define AS_U(x) __builtin_astype((x), uint)

#endif
