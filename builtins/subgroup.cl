/* Sub-group functions (OpenCL C 3.0 6.15.16 / cl_khr_subgroups, the
 * cl_khr_subgroup_* extensions and cl_intel_subgroups).
 *
 * A sub-group is a run of at most S consecutive work-items along local
 * dimension 0 in one row (y, z) of the work-group: S is the kernel's
 * sub-group size, its intel_reqd_sub_group_size or the target's lanes of
 * 32 bits (16 with AVX-512). The work-group compiler runs a sub-group's
 * work-items in one vector of the work-item loop (docs/COMPILER.md, "Sub-
 * groups"). Every function that exchanges values is one placeholder call,
 * __loom_sgc(op, x, aux): the compiler makes it a sub-group barrier where
 * each work-item leaves x and aux, and after which __loom_sg_combine, run
 * once per sub-group, has written each work-item's result. The work-items
 * that reached the same barrier together are the active ones: the
 * non-uniform functions fold only theirs. */
#include "loom_builtins.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define SG_SIZE() ((uint)__loom_wi(LOOM_WI_SUB_GROUP_SIZE, 0))

/* ---- the placeholders (resolved by workgroup/wg_barriers.c) ---- */

void __loom_sg_barrier(void) __attribute__((convergent, noduplicate));
uint4 __loom_sgc_ballot(int op, int x, uint aux) __attribute__((convergent, noduplicate));

#define SG_DECL1(T) T OVL __loom_sgc(int op, T x, uint aux) __attribute__((convergent, noduplicate));
#define SG_DECL(T)                                                                       \
  SG_DECL1(T) SG_DECL1(T##2) SG_DECL1(T##3) SG_DECL1(T##4) SG_DECL1(T##8) SG_DECL1(T##16)
SG_DECL(char)
SG_DECL(uchar)
SG_DECL(short)
SG_DECL(ushort)
SG_DECL(int)
SG_DECL(uint)
SG_DECL(long)
SG_DECL(ulong)
SG_DECL(half)
SG_DECL(float)
SG_DECL(double)

#define SGC(kind, type, fn, x, aux)                                                      \
  __loom_sgc(LOOM_SG_OP(LOOM_SGK_##kind, (type), LOOM_SGF_##fn), x, (uint)(aux))
/* the same for a function the whole sub-group reaches together */
#define SGCU(kind, type, fn, x, aux)                                                     \
  __loom_sgc(LOOM_SG_OP(LOOM_SGK_##kind, (type), LOOM_SGF_##fn) | LOOM_SG_UNIFORM, x,     \
             (uint)(aux))
#define LOOM_SGF_NONE 0

/* ---- the combine step: run by the work-group function, never by a kernel ---- */

/* where == NULL: every work-item of the sub-group is active (the
 * work-group function passes a constant NULL when they all are) */
#define SG_ACTIVE(i) (!where || where[i] == p)

/* the folds of type T (computed in U: integer adds and products wrap) */
#define SG_FOLD_COMMON(T, U, MINV, MAXV, NAME, MINF, MAXF)                              \
  static INLINE T sg_op_##NAME(uint fn, T a, T b) {                                      \
    switch (fn) {                                                                        \
    case LOOM_SGF_ADD: return (T)((U)a + (U)b);                                          \
    case LOOM_SGF_MUL: return (T)((U)a * (U)b);                                          \
    case LOOM_SGF_MIN: return MINF(a, b);                                                \
    case LOOM_SGF_MAX: return MAXF(a, b);                                                \
    default: return sg_op_bits_##NAME(fn, a, b);                                          \
    }                                                                                    \
  }                                                                                      \
  static INLINE T sg_identity_##NAME(uint fn) {                                          \
    switch (fn) {                                                                        \
    case LOOM_SGF_MUL: case LOOM_SGF_LAND: return (T)1;                                  \
    case LOOM_SGF_MIN: return MAXV;                                                      \
    case LOOM_SGF_MAX: return MINV;                                                      \
    case LOOM_SGF_AND: return sg_all_ones_##NAME();                                      \
    default: return (T)0;                                                                \
    }                                                                                    \
  }                                                                                      \
  static INLINE void sg_fold_##NAME(uint kind, uint fn, __private const T *x,            \
                                    __private T *res, __private const uint *aux,          \
                                    __private const int *where, int p, uint n) {          \
    if (kind == LOOM_SGK_REDUCE) {                                                       \
      _Pragma("clang fp reassociate(on)") T acc = sg_identity_##NAME(fn);                \
      for (uint i = 0; i < n; i++)                                                       \
        acc = SG_ACTIVE(i) ? sg_op_##NAME(fn, acc, x[i]) : acc;                           \
      for (uint i = 0; i < n; i++)                                                       \
        res[i] = acc;                                                                    \
    } else if (kind == LOOM_SGK_SCAN_INCL || kind == LOOM_SGK_SCAN_EXCL) {               \
      T acc = sg_identity_##NAME(fn);                                                    \
      for (uint i = 0; i < n; i++)                                                       \
        if (SG_ACTIVE(i)) {                                                              \
          T next = sg_op_##NAME(fn, acc, x[i]);                                          \
          res[i] = kind == LOOM_SGK_SCAN_INCL ? next : acc;                              \
          acc = next;                                                                    \
        }                                                                                \
    } else if (kind == LOOM_SGK_CLUSTER) {                                               \
      uint cs = 1;                                                                       \
      for (uint i = 0; i < n; i++)                                                       \
        if (SG_ACTIVE(i)) {                                                              \
          cs = aux[i];                                                                   \
          break;                                                                         \
        }                                                                                \
      cs = cs < 1 ? 1 : cs;                                                              \
      for (uint c = 0; c < n; c += cs) {                                                 \
        uint end = n - c < cs ? n : c + cs;                                              \
        T acc = sg_identity_##NAME(fn);                                                  \
        for (uint i = c; i < end; i++)                                                   \
          acc = SG_ACTIVE(i) ? sg_op_##NAME(fn, acc, x[i]) : acc;                         \
        for (uint i = c; i < end; i++)                                                   \
          res[i] = acc;                                                                  \
      }                                                                                  \
    }                                                                                    \
  }

#define SG_IMIN(a, b) ((b) < (a) ? (b) : (a))
#define SG_IMAX(a, b) ((a) < (b) ? (b) : (a))

#define SG_FOLD_INT(T, U, MINV, MAXV)                                                    \
  static INLINE T sg_all_ones_##T(void) { return (T)~(U)0; }                             \
  static INLINE T sg_op_bits_##T(uint fn, T a, T b) {                                    \
    switch (fn) {                                                                        \
    case LOOM_SGF_AND: return a & b;                                                     \
    case LOOM_SGF_OR: return a | b;                                                      \
    case LOOM_SGF_XOR: return a ^ b;                                                     \
    case LOOM_SGF_LAND: return (T)(a != 0 && b != 0);                                    \
    case LOOM_SGF_LOR: return (T)(a != 0 || b != 0);                                     \
    case LOOM_SGF_LXOR: return (T)((a != 0) != (b != 0));                                \
    default: return a;                                                                   \
    }                                                                                    \
  }                                                                                      \
  SG_FOLD_COMMON(T, U, MINV, MAXV, T, SG_IMIN, SG_IMAX)

#define SG_FOLD_FLOAT(T)                                                                 \
  static INLINE T sg_all_ones_##T(void) { return (T)0; }                                 \
  static INLINE T sg_op_bits_##T(uint fn, T a, T b) { (void)fn, (void)b; return a; }     \
  SG_FOLD_COMMON(T, T, (T)(-INFINITY), (T)INFINITY, T, fmin, fmax)

SG_FOLD_INT(char, uchar, CHAR_MIN, CHAR_MAX)
SG_FOLD_INT(uchar, uchar, 0, UCHAR_MAX)
SG_FOLD_INT(short, ushort, SHRT_MIN, SHRT_MAX)
SG_FOLD_INT(ushort, ushort, 0, USHRT_MAX)
SG_FOLD_INT(int, uint, INT_MIN, INT_MAX)
SG_FOLD_INT(uint, uint, 0, UINT_MAX)
SG_FOLD_INT(long, ulong, LONG_MIN, LONG_MAX)
SG_FOLD_INT(ulong, ulong, 0, ULONG_MAX)
SG_FOLD_FLOAT(half)
SG_FOLD_FLOAT(float)
SG_FOLD_FLOAT(double)

/* moves of values of one size: a shuffle reads the work-item aux names
 * (its own value when aux is out of the sub-group, which the spec leaves
 * undefined: never memory outside it) */
#define SG_MOVE(T)                                                                       \
  static INLINE void sg_move_##T(uint kind, __private const T *x, __private T *res,      \
                                 __private const uint *aux, __private const int *where,   \
                                 int p, uint n) {                                         \
    if (kind == LOOM_SGK_SHUFFLE) {                                                      \
      for (uint i = 0; i < n; i++) {                                                     \
        uint s = aux[i];                                                                 \
        res[i] = x[s < n ? s : i];                                                       \
      }                                                                                  \
    } else {                                                                             \
      uint f = 0;                                                                        \
      while (f + 1 < n && !SG_ACTIVE(f))                                                 \
        f++;                                                                             \
      T v = x[f];                                                                        \
      for (uint i = 0; i < n; i++)                                                       \
        res[i] = v;                                                                      \
    }                                                                                    \
  }
SG_MOVE(uchar)
SG_MOVE(ushort)
SG_MOVE(uint)
SG_MOVE(ulong)
SG_MOVE(ulong2)
SG_MOVE(ulong4)
SG_MOVE(ulong8)
SG_MOVE(ulong16)

/* x: n values of the sub-group (consecutive), res: their results, aux: the
 * auxiliary operands, where: the barrier each work-item is at (p: this
 * one's; NULL: all are at p); called with a constant op, so one case
 * remains after inlining, and for a whole converged sub-group with a
 * constant n and a NULL where, so its loops are a few vector instructions */
void __loom_sg_combine(uint op, __private void *x, __private void *res,
                       __private const uint *aux, __private const int *where, int p, uint n) {
  uint kind = LOOM_SG_KIND(op), type = LOOM_SG_TYPE(op), fn = LOOM_SG_FN(op);
  if (kind == LOOM_SGK_SHUFFLE || kind == LOOM_SGK_FIRST) {
#define SG_MOVE_CASE(size, T)                                                            \
  case size:                                                                             \
    sg_move_##T(kind, (__private const T *)x, (__private T *)res, aux, where, p, n);     \
    return;
    switch (type) {
      SG_MOVE_CASE(1, uchar)
      SG_MOVE_CASE(2, ushort)
      SG_MOVE_CASE(4, uint)
      SG_MOVE_CASE(8, ulong)
      SG_MOVE_CASE(16, ulong2)
      SG_MOVE_CASE(32, ulong4)
      SG_MOVE_CASE(64, ulong8)
      SG_MOVE_CASE(128, ulong16)
    }
    return;
  }
  if (kind == LOOM_SGK_BALLOT) {
    __private const int *pred = (__private const int *)x;
    uint4 bits = 0;
    for (uint i = 0; i < n && i < 128; i++)
      if (SG_ACTIVE(i) && pred[i]) {
        uint b = 1u << (i % 32);
        bits.x |= i < 32 ? b : 0;
        bits.y |= i >= 32 && i < 64 ? b : 0;
        bits.z |= i >= 64 && i < 96 ? b : 0;
        bits.w |= i >= 96 ? b : 0;
      }
    for (uint i = 0; i < n; i++)
      ((__private uint4 *)res)[i] = bits;
    return;
  }
#define SG_FOLD_CASE(code, T)                                                            \
  case code:                                                                             \
    sg_fold_##T(kind, fn, (__private const T *)x, (__private T *)res, aux, where, p, n); \
    return;
  switch (type) {
    SG_FOLD_CASE(LOOM_SGT_I8, char)
    SG_FOLD_CASE(LOOM_SGT_U8, uchar)
    SG_FOLD_CASE(LOOM_SGT_I16, short)
    SG_FOLD_CASE(LOOM_SGT_U16, ushort)
    SG_FOLD_CASE(LOOM_SGT_I32, int)
    SG_FOLD_CASE(LOOM_SGT_U32, uint)
    SG_FOLD_CASE(LOOM_SGT_I64, long)
    SG_FOLD_CASE(LOOM_SGT_U64, ulong)
    SG_FOLD_CASE(LOOM_SGT_F16, half)
    SG_FOLD_CASE(LOOM_SGT_F32, float)
    SG_FOLD_CASE(LOOM_SGT_F64, double)
  }
}

/* ---- work-item functions ---- */

uint OVL get_sub_group_local_id(void) { return (uint)(get_local_id(0) % SG_SIZE()); }

uint OVL get_sub_group_size(void) {
  size_t left = get_local_size(0) - get_local_id(0) / SG_SIZE() * SG_SIZE();
  return (uint)(left < SG_SIZE() ? left : SG_SIZE());
}

uint OVL get_max_sub_group_size(void) {
  size_t e = get_enqueued_local_size(0);
  return (uint)(e < SG_SIZE() ? e : SG_SIZE());
}

uint OVL get_num_sub_groups(void) {
  size_t per_row = (get_local_size(0) + SG_SIZE() - 1) / SG_SIZE();
  return (uint)(per_row * get_local_size(1) * get_local_size(2));
}

uint OVL get_enqueued_num_sub_groups(void) {
  size_t per_row = (get_enqueued_local_size(0) + SG_SIZE() - 1) / SG_SIZE();
  return (uint)(per_row * get_enqueued_local_size(1) * get_enqueued_local_size(2));
}

uint OVL get_sub_group_id(void) {
  size_t per_row = (get_local_size(0) + SG_SIZE() - 1) / SG_SIZE();
  size_t row = get_local_id(2) * get_local_size(1) + get_local_id(1);
  return (uint)(row * per_row + get_local_id(0) / SG_SIZE());
}

void OVL sub_group_barrier(cl_mem_fence_flags flags) {
  (void)flags;
  __loom_sg_barrier();
}

void OVL sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)flags, (void)scope;
  __loom_sg_barrier();
}

/* ---- votes and ballots ---- */

int OVL sub_group_all(int predicate) { return SGCU(REDUCE, LOOM_SGT_I32, LAND, predicate != 0, 0); }
int OVL sub_group_any(int predicate) { return SGCU(REDUCE, LOOM_SGT_I32, LOR, predicate != 0, 0); }
int OVL sub_group_non_uniform_all(int predicate) {
  return SGC(REDUCE, LOOM_SGT_I32, LAND, predicate != 0, 0);
}
int OVL sub_group_non_uniform_any(int predicate) {
  return SGC(REDUCE, LOOM_SGT_I32, LOR, predicate != 0, 0);
}

int OVL sub_group_elect(void) {
  uint lid = get_sub_group_local_id();
  return SGC(FIRST, 4, NONE, lid, 0) == lid;
}

uint4 OVL sub_group_ballot(int predicate) {
  return __loom_sgc_ballot(LOOM_SG_OP(LOOM_SGK_BALLOT, 0, 0), predicate != 0, 0);
}

static INLINE uint sg_word(uint4 v, uint i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* the bits [lo, hi) of a uint4 (hi <= 128) */
static INLINE uint4 sg_bit_range(uint lo, uint hi) {
  uint4 r;
  for (uint w = 0; w < 4; w++) {
    uint a = lo > 32 * w ? lo - 32 * w : 0, b = hi > 32 * w ? hi - 32 * w : 0;
    a = a > 32 ? 32 : a;
    b = b > 32 ? 32 : b;
    uint m = (b >= 32 ? ~0u : (1u << b) - 1) & ~(a >= 32 ? ~0u : (1u << a) - 1);
    if (w == 0) r.x = m;
    else if (w == 1) r.y = m;
    else if (w == 2) r.z = m;
    else r.w = m;
  }
  return r;
}

int OVL sub_group_inverse_ballot(uint4 value) {
  uint lid = get_sub_group_local_id();
  return (sg_word(value, lid / 32) >> (lid % 32)) & 1;
}

int OVL sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 128 ? (sg_word(value, index / 32) >> (index % 32)) & 1 : 0;
}

static INLINE uint sg_popcount4(uint4 v) {
  return popcount(v.x) + popcount(v.y) + popcount(v.z) + popcount(v.w);
}

uint OVL sub_group_ballot_bit_count(uint4 value) {
  return sg_popcount4(value & sg_bit_range(0, get_sub_group_size()));
}

uint OVL sub_group_ballot_inclusive_scan(uint4 value) {
  return sg_popcount4(value & sg_bit_range(0, get_sub_group_local_id() + 1));
}

uint OVL sub_group_ballot_exclusive_scan(uint4 value) {
  return sg_popcount4(value & sg_bit_range(0, get_sub_group_local_id()));
}

/* find_lsb and find_msb look at the bits of the largest sub-group, as the
 * CTS reads "the bits that represent work-items in the sub-group" */
uint OVL sub_group_ballot_find_lsb(uint4 value) {
  value &= sg_bit_range(0, get_max_sub_group_size());
  for (uint w = 0; w < 4; w++)
    if (sg_word(value, w))
      return 32 * w + ctz(sg_word(value, w));
  return ~0u;
}

uint OVL sub_group_ballot_find_msb(uint4 value) {
  value &= sg_bit_range(0, get_max_sub_group_size());
  for (int w = 3; w >= 0; w--)
    if (sg_word(value, (uint)w))
      return 32 * (uint)w + 31 - clz(sg_word(value, (uint)w));
  return ~0u;
}

uint4 OVL get_sub_group_eq_mask(void) {
  uint l = get_sub_group_local_id();
  return sg_bit_range(l, l + 1);
}
uint4 OVL get_sub_group_ge_mask(void) {
  return sg_bit_range(get_sub_group_local_id(), get_sub_group_size());
}
uint4 OVL get_sub_group_gt_mask(void) {
  return sg_bit_range(get_sub_group_local_id() + 1, get_sub_group_size());
}
uint4 OVL get_sub_group_le_mask(void) { return sg_bit_range(0, get_sub_group_local_id() + 1); }
uint4 OVL get_sub_group_lt_mask(void) { return sg_bit_range(0, get_sub_group_local_id()); }

/* ---- moves: broadcasts, shuffles, rotations ---- */

/* the source of a rotation by delta within clusters of cs work-items */
static INLINE uint sg_rotate_source(int delta, uint cs) {
  uint lid = get_sub_group_local_id();
  uint base = lid / cs * cs;
  long d = (long)delta % (long)cs;
  return base + (uint)(((long)(lid - base) + d + (long)cs) % (long)cs);
}

#define SG_MOVES1(T)                                                                     \
  T OVL sub_group_broadcast(T x, uint id) { return SGCU(SHUFFLE, sizeof(T), NONE, x, id); } \
  T OVL sub_group_non_uniform_broadcast(T x, uint id) {                                  \
    return SGC(SHUFFLE, sizeof(T), NONE, x, id);                                         \
  }                                                                                      \
  T OVL intel_sub_group_shuffle(T x, uint id) { return SGC(SHUFFLE, sizeof(T), NONE, x, id); } \
  T OVL intel_sub_group_shuffle_xor(T x, uint m) {                                       \
    return SGC(SHUFFLE, sizeof(T), NONE, x, get_sub_group_local_id() ^ m);               \
  }                                                                                      \
  T OVL intel_sub_group_shuffle_down(T cur, T next, uint delta) {                        \
    uint i = get_sub_group_local_id() + delta, s = get_max_sub_group_size();             \
    T a = SGC(SHUFFLE, sizeof(T), NONE, cur, i);                                         \
    T b = SGC(SHUFFLE, sizeof(T), NONE, next, i - s);                                    \
    return i < s ? a : b;                                                                \
  }                                                                                      \
  T OVL intel_sub_group_shuffle_up(T prev, T cur, uint delta) {                          \
    uint lid = get_sub_group_local_id(), s = get_max_sub_group_size();                   \
    T a = SGC(SHUFFLE, sizeof(T), NONE, cur, lid - delta);                               \
    T b = SGC(SHUFFLE, sizeof(T), NONE, prev, lid + s - delta);                          \
    return delta <= lid ? a : b;                                                         \
  }
#define SG_MOVES(T)                                                                      \
  SG_MOVES1(T) SG_MOVES1(T##2) SG_MOVES1(T##3) SG_MOVES1(T##4) SG_MOVES1(T##8)           \
  SG_MOVES1(T##16)                                                                       \
  T OVL sub_group_broadcast_first(T x) { return SGC(FIRST, sizeof(T), NONE, x, 0); }     \
  T OVL sub_group_shuffle(T x, uint id) { return SGC(SHUFFLE, sizeof(T), NONE, x, id); } \
  T OVL sub_group_shuffle_xor(T x, uint m) {                                             \
    return SGC(SHUFFLE, sizeof(T), NONE, x, get_sub_group_local_id() ^ m);               \
  }                                                                                      \
  T OVL sub_group_shuffle_up(T x, uint delta) {                                          \
    return SGC(SHUFFLE, sizeof(T), NONE, x, get_sub_group_local_id() - delta);           \
  }                                                                                      \
  T OVL sub_group_shuffle_down(T x, uint delta) {                                        \
    return SGC(SHUFFLE, sizeof(T), NONE, x, get_sub_group_local_id() + delta);           \
  }                                                                                      \
  T OVL sub_group_rotate(T x, int delta) {                                               \
    return SGCU(SHUFFLE, sizeof(T), NONE, x, sg_rotate_source(delta, get_sub_group_size())); \
  }                                                                                      \
  T OVL sub_group_clustered_rotate(T x, int delta, uint cs) {                            \
    return SGCU(SHUFFLE, sizeof(T), NONE, x, sg_rotate_source(delta, cs ? cs : 1));      \
  }                                                                                      \
  int OVL sub_group_non_uniform_all_equal(T x) {                                         \
    return sub_group_non_uniform_all(sub_group_broadcast_first(x) == x);                 \
  }
SG_MOVES(char)
SG_MOVES(uchar)
SG_MOVES(short)
SG_MOVES(ushort)
SG_MOVES(int)
SG_MOVES(uint)
SG_MOVES(long)
SG_MOVES(ulong)
SG_MOVES(half)
SG_MOVES(float)
SG_MOVES(double)

/* ---- folds ---- */

#define SG_FOLD_FN(T, code, NAME, FN)                                                    \
  T OVL sub_group_reduce_##NAME(T x) { return SGCU(REDUCE, code, FN, x, 0); }            \
  T OVL sub_group_scan_inclusive_##NAME(T x) { return SGCU(SCAN_INCL, code, FN, x, 0); } \
  T OVL sub_group_scan_exclusive_##NAME(T x) { return SGCU(SCAN_EXCL, code, FN, x, 0); } \
  T OVL sub_group_non_uniform_reduce_##NAME(T x) { return SGC(REDUCE, code, FN, x, 0); } \
  T OVL sub_group_non_uniform_scan_inclusive_##NAME(T x) {                               \
    return SGC(SCAN_INCL, code, FN, x, 0);                                               \
  }                                                                                      \
  T OVL sub_group_non_uniform_scan_exclusive_##NAME(T x) {                               \
    return SGC(SCAN_EXCL, code, FN, x, 0);                                               \
  }                                                                                      \
  T OVL sub_group_clustered_reduce_##NAME(T x, uint cs) {                                \
    return SGC(CLUSTER, code, FN, x, cs);                                                \
  }
#define SG_FOLDS(T, code)                                                                \
  SG_FOLD_FN(T, code, add, ADD)                                                          \
  SG_FOLD_FN(T, code, mul, MUL)                                                          \
  SG_FOLD_FN(T, code, min, MIN)                                                          \
  SG_FOLD_FN(T, code, max, MAX)
#define SG_FOLDS_INT(T, code)                                                            \
  SG_FOLDS(T, code)                                                                      \
  SG_FOLD_FN(T, code, and, AND)                                                          \
  SG_FOLD_FN(T, code, or, OR)                                                            \
  SG_FOLD_FN(T, code, xor, XOR)
SG_FOLDS_INT(char, LOOM_SGT_I8)
SG_FOLDS_INT(uchar, LOOM_SGT_U8)
SG_FOLDS_INT(short, LOOM_SGT_I16)
SG_FOLDS_INT(ushort, LOOM_SGT_U16)
SG_FOLDS_INT(int, LOOM_SGT_I32)
SG_FOLDS_INT(uint, LOOM_SGT_U32)
SG_FOLDS_INT(long, LOOM_SGT_I64)
SG_FOLDS_INT(ulong, LOOM_SGT_U64)
SG_FOLDS(half, LOOM_SGT_F16)
SG_FOLDS(float, LOOM_SGT_F32)
SG_FOLDS(double, LOOM_SGT_F64)
/* the logical folds take and give int (0 or 1) */
SG_FOLD_FN(int, LOOM_SGT_I32, logical_and, LAND)
SG_FOLD_FN(int, LOOM_SGT_I32, logical_or, LOR)
SG_FOLD_FN(int, LOOM_SGT_I32, logical_xor, LXOR)

/* ---- cl_intel_subgroups block reads and writes of a buffer: work-item i
 * of the sub-group has element i of each run of sub-group-size elements ---- */

#define SG_BLOCK(N, SUFFIX)                                                              \
  uint##N OVL intel_sub_group_block_read##SUFFIX(const __global uint *p) {               \
    uint lid = get_sub_group_local_id(), s = get_max_sub_group_size();                   \
    uint r[N];                                                                           \
    for (uint k = 0; k < N; k++)                                                         \
      r[k] = p[lid + k * s];                                                             \
    return vload##N(0, r);                                                               \
  }                                                                                      \
  void OVL intel_sub_group_block_write##SUFFIX(__global uint *p, uint##N data) {         \
    uint lid = get_sub_group_local_id(), s = get_max_sub_group_size();                   \
    uint r[N];                                                                           \
    vstore##N(data, 0, r);                                                               \
    for (uint k = 0; k < N; k++)                                                         \
      p[lid + k * s] = r[k];                                                             \
  }
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define uint1 uint
SG_BLOCK(1, )
SG_BLOCK(2, 2)
SG_BLOCK(4, 4)
SG_BLOCK(8, 8)
