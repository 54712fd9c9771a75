/* Shared by jam_rows.c (which y loops, how many rows) and jam_build.c (the
 * rewrite): the shape of a y work-item loop VPlan left around one vector of
 * work-items. Internal to the pass jam-rows. */
#ifndef LOOM_JAM_ROWS_H
#define LOOM_JAM_ROWS_H
#include "support/llvm_util.h"

/* rows run together: at most 4 around an inner loop (its row-varying
 * values carried in registers), 8 where the y loop is one block (its
 * row-invariant work, XgemmDirectTN's transposition of A, once for all
 * 8 rows of an 8 x 8 group: SGEMM 512 on AMD Zen 5 90 -> 99 GFLOP/s) */
enum { LOOM_MAX_JAM_LOOP = 4, LOOM_MAX_JAM = 8, LOOM_ROWS_MAX_AFFINE = 8 };

struct loom_rows {
  LLVMBasicBlockRef head, body, tail; /* body NULL: one block, head == tail */
  LLVMValueRef latch_cmp;
  /* header phis: each an induction `p = phi [init, pre], [p + step, tail]` */
  LLVMValueRef phi[LOOM_ROWS_MAX_AFFINE], step_add[LOOM_ROWS_MAX_AFFINE];
  long long step[LOOM_ROWS_MAX_AFFINE];
  unsigned nphi;
  LLVMValueRef iv; /* the y counter: from 0 by 1 */
  unsigned long long trips;
};

/* v a constant integer of at most 64 bits: its value in *k */
bool loom_rows_const_int(LLVMValueRef v, long long *k) LOOM_HIDDEN;
/* an instruction's weight in the jam's choice (a gather or scatter 4) */
unsigned loom_rows_inst_cost(LLVMValueRef in) LOOM_HIDDEN;

/* the loop's own counting (the inductions' steps, the latch test) */
bool loom_rows_counting(const struct loom_rows *r, LLVMValueRef in) LOOM_HIDDEN;

/* jam_build.c: whether instruction `in` of the inner loop (a row-varying
 * vector value at most half a register of simd_bytes) can hold two rows in
 * one vector of twice the lanes: element-wise arithmetic, compares, casts,
 * selects on a vector condition, element-wise intrinsics, shuffles,
 * insertions at a constant index and phis */
bool loom_rows_packable(LLVMValueRef in, unsigned simd_bytes) LOOM_HIDDEN;

/* jam_build.c: runs `jam` rows of r together. Row-varying instructions
 * (`varying`) are copied per row, each copy right after its original, except
 * those in `packed` (instructions of the inner loop, phis included): one
 * instruction of twice the lanes per two rows, rows 2p and 2p+1 in its low
 * and high half (jam even). Row-invariant operands of packed instructions
 * are duplicated into both halves once; the loop's other values meet the
 * packed ones through shuffles that join or split the halves. */
void loom_rows_rewrite(const struct loom_rows *r, const struct loom_ptrmap *varying,
                       const struct loom_ptrmap *packed, unsigned jam) LOOM_HIDDEN;

/* row_tables.c: where the y loop keeps iterating, the row-invariant reads
 * of its inner loop (and what the row-varying code takes from them) run
 * once, in a loop before it, into tables the inner loop then loads;
 * false if r does not qualify (nothing changed) */
bool loom_rows_table(const struct loom_rows *r, const struct loom_ptrmap *varying) LOOM_HIDDEN;

#endif
