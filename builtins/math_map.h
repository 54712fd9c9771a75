/* Per-component vector forms of scalar math builtins. The scalar function
 * must already be declared (overloadable); these stamp out widths 2..16. Each
 * loop has a constant trip count, so it unrolls and stays vectorisable across
 * work-items. */
#ifndef LOOM_MATH_MAP_H
#define LOOM_MATH_MAP_H

#define LM_E(S, v, i) (((__private S *)&(v))[i])
/* N, not vec_step: vec_step of a 3-vector is 4, and the padding lane holds
 * poison that a branching scalar function may turn into undefined behaviour */
#define LM_FOR(N) for (int i = 0; i < N; i++)

#define LM_WIDTHS(M, ...)                                                      \
  M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__)      \
  M(16, __VA_ARGS__)

/* V f(V) */
#define LM_V1(N, S, f)                                                         \
  S##N OVL f(S##N x) {                                                         \
    S##N r;                                                                    \
    LM_FOR(N) LM_E(S, r, i) = f(LM_E(S, x, i));                             \
    return r;                                                                  \
  }
/* V f(V, V) */
#define LM_V2(N, S, f)                                                         \
  S##N OVL f(S##N x, S##N y) {                                                 \
    S##N r;                                                                    \
    LM_FOR(N) LM_E(S, r, i) = f(LM_E(S, x, i), LM_E(S, y, i));              \
    return r;                                                                  \
  }
/* V f(V, intN) */
#define LM_VI(N, S, f)                                                         \
  S##N OVL f(S##N x, int##N k) {                                               \
    S##N r;                                                                    \
    LM_FOR(N) LM_E(S, r, i) = f(LM_E(S, x, i), LM_E(int, k, i));            \
    return r;                                                                  \
  }
/* intN f(V) */
#define LM_IV(N, S, f)                                                         \
  int##N OVL f(S##N x) {                                                       \
    int##N r;                                                                  \
    LM_FOR(N) LM_E(int, r, i) = f(LM_E(S, x, i));                           \
    return r;                                                                  \
  }
/* V f(V, AS V *) */
#define LM_VP(N, S, f, AS)                                                     \
  S##N OVL f(S##N x, AS S##N *p) {                                             \
    S##N r, q;                                                                 \
    LM_FOR(N) LM_E(S, r, i) = f(LM_E(S, x, i), &LM_E(S, q, i));             \
    *p = q;                                                                    \
    return r;                                                                  \
  }
/* V f(V, AS intN *) */
#define LM_VPI(N, S, f, AS)                                                    \
  S##N OVL f(S##N x, AS int##N *p) {                                           \
    S##N r;                                                                    \
    int##N q;                                                                  \
    LM_FOR(N) LM_E(S, r, i) = f(LM_E(S, x, i), &LM_E(int, q, i));           \
    *p = q;                                                                    \
    return r;                                                                  \
  }
/* V f(V, V, AS intN *) */
#define LM_VVPI(N, S, f, AS)                                                   \
  S##N OVL f(S##N x, S##N y, AS int##N *p) {                                   \
    S##N r;                                                                    \
    int##N q;                                                                  \
    LM_FOR(N)                                                               \
    LM_E(S, r, i) = f(LM_E(S, x, i), LM_E(S, y, i), &LM_E(int, q, i));         \
    *p = q;                                                                    \
    return r;                                                                  \
  }

/* scalar forms for the other address spaces, through a private temporary */
#define LM_SP(S, f, AS, PT)                                                    \
  S OVL f(S x, AS PT *p) {                                                     \
    __private PT q;                                                            \
    S r = f(x, &q);                                                            \
    *p = q;                                                                    \
    return r;                                                                  \
  }
#define LM_SSP(S, f, AS, PT)                                                   \
  S OVL f(S x, S y, AS PT *p) {                                                \
    __private PT q;                                                            \
    S r = f(x, y, &q);                                                         \
    *p = q;                                                                    \
    return r;                                                                  \
  }

#define LM_ALL_AS(M, ...)                                                      \
  M(__VA_ARGS__, __private) M(__VA_ARGS__, __global) M(__VA_ARGS__, __local)   \
  M(__VA_ARGS__, __generic)
#define LM_OTHER_AS(M, ...)                                                    \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __generic)

/* both float and double, every vector width */
#define LM_ALL1(f) LM_WIDTHS(LM_V1, float, f) LM_WIDTHS(LM_V1, double, f)
#define LM_ALL2(f) LM_WIDTHS(LM_V2, float, f) LM_WIDTHS(LM_V2, double, f)
#define LM_ALLVI(f) LM_WIDTHS(LM_VI, float, f) LM_WIDTHS(LM_VI, double, f)
#define LM_ALLIV(f) LM_WIDTHS(LM_IV, float, f) LM_WIDTHS(LM_IV, double, f)

#endif
