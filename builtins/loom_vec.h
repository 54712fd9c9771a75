/* Macros that stamp out a builtin for a scalar type and every vector width. */
#ifndef LOOM_VEC_H
#define LOOM_VEC_H

#define LOOM_FOR_WIDTHS(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)

/* per-component application for functions with no elementwise builtin */
#define LOOM_VMAP1(V, S, name)                                                  \
  V OVL name(V x) {                                                            \
    V r;                                                                       \
    for (int i = 0; i < (int)vec_step(V); i++)                                 \
      ((S *)&r)[i] = name(((S *)&x)[i]);                                       \
    return r;                                                                  \
  }
#define LOOM_VMAP2(V, S, name)                                                  \
  V OVL name(V x, V y) {                                                       \
    V r;                                                                       \
    for (int i = 0; i < (int)vec_step(V); i++)                                 \
      ((S *)&r)[i] = name(((S *)&x)[i], ((S *)&y)[i]);                         \
    return r;                                                                  \
  }
#define LOOM_VMAP1_ALL(S, name)                                                 \
  LOOM_VMAP1(S##2, S, name) LOOM_VMAP1(S##3, S, name) LOOM_VMAP1(S##4, S, name) \
  LOOM_VMAP1(S##8, S, name) LOOM_VMAP1(S##16, S, name)
#define LOOM_VMAP2_ALL(S, name)                                                 \
  LOOM_VMAP2(S##2, S, name) LOOM_VMAP2(S##3, S, name) LOOM_VMAP2(S##4, S, name) \
  LOOM_VMAP2(S##8, S, name) LOOM_VMAP2(S##16, S, name)

#endif
