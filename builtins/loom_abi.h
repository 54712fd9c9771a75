/* The contract between the builtin library and the work-group compiler.
 * Included from both OpenCL C (builtins/) and C (src/compiler/). */
#ifndef LOOM_ABI_H
#define LOOM_ABI_H

/* __loom_wi(kind, dim): work-item queries the compiler resolves */
#define LOOM_WI_GROUP_ID 0
#define LOOM_WI_LOCAL_SIZE 1
#define LOOM_WI_ENQ_LOCAL_SIZE 2
#define LOOM_WI_GLOBAL_OFFSET 3
#define LOOM_WI_NUM_GROUPS 4
#define LOOM_WI_GLOBAL_SIZE 5
#define LOOM_WI_WORK_DIM 6
#define LOOM_WI_LOCAL_ID 7
/* where the work-group's memory lies (addresses and sizes in bytes; dim is
 * ignored): the address space functions to_local/to_private/to_global */
#define LOOM_WI_LOCAL_MEM_BASE 8
#define LOOM_WI_LOCAL_MEM_SIZE 9
#define LOOM_WI_STACK_LO 10
#define LOOM_WI_STACK_HI 11
#define LOOM_WI_SCRATCH_BASE 12
#define LOOM_WI_SCRATCH_SIZE 13
/* the kernel's sub-group size (a constant: intel_reqd_sub_group_size, or
 * the target's lanes of 32 bits); dim is ignored */
#define LOOM_WI_SUB_GROUP_SIZE 14

/* the most work-items a group may have (CL_DEVICE_MAX_WORK_GROUP_SIZE and
 * each CL_DEVICE_MAX_WORK_ITEM_SIZES): the compiler bounds local ids by it */
#define LOOM_MAX_GROUP_ITEMS 4096

#define LOOM_SYM_WI "__loom_wi"
#define LOOM_SYM_BARRIER "__loom_barrier"
/* __loom_wg_scratch(): LOOM_WG_SCRATCH_BYTES of the work-group's __local
 * memory reserved for the work-group collective functions (local_mem.c) */
#define LOOM_SYM_WG_SCRATCH "__loom_wg_scratch"
#define LOOM_WG_SCRATCH_BYTES 32

/* Sub-group collectives (builtins/subgroup.cl, workgroup/wg_barriers.c).
 * A call `r = __loom_sgc...(op, x, aux)` is a sub-group barrier at which
 * every work-item leaves x and aux; __loom_sg_combine(op, ...) then computes
 * each active work-item's r from the sub-group's values. op packs a kind,
 * a type and a function: LOOM_SG_OP(kind, type, fn). A plain
 * __loom_sg_barrier() is a sub-group barrier without values (op 0). */
#define LOOM_SYM_SG_COLLECTIVE "__loom_sgc"
#define LOOM_SYM_SG_BARRIER "__loom_sg_barrier"
#define LOOM_SYM_SG_COMBINE "__loom_sg_combine"
#define LOOM_SG_OP(kind, type, fn) (((kind) << 16) | ((type) << 8) | (fn))
#define LOOM_SG_KIND(op) (((op) >> 16) & 0xff)
/* set in op: a function every work-item of the sub-group reaches together
 * (reduce, scan, broadcast, all, any, rotate); the work-group function runs
 * its barrier only once no work-item of the sub-group waits elsewhere */
#define LOOM_SG_UNIFORM (1 << 30)
#define LOOM_SG_TYPE(op) (((op) >> 8) & 0xff)
#define LOOM_SG_FN(op) ((op) & 0xff)
/* kinds: folds over the active work-items (REDUCE, SCANs; CLUSTER folds
 * clusters of aux work-items), moves (SHUFFLE: the value of the work-item
 * whose sub-group local id is aux; FIRST: of the first active one) and
 * BALLOT (x an int, r the uint4 of active work-items with x != 0) */
#define LOOM_SGK_REDUCE 1
#define LOOM_SGK_SCAN_INCL 2
#define LOOM_SGK_SCAN_EXCL 3
#define LOOM_SGK_CLUSTER 4
#define LOOM_SGK_SHUFFLE 5
#define LOOM_SGK_FIRST 6
#define LOOM_SGK_BALLOT 7
/* types of the folds; a move's type is its value's size in bytes */
#define LOOM_SGT_I8 1
#define LOOM_SGT_U8 2
#define LOOM_SGT_I16 3
#define LOOM_SGT_U16 4
#define LOOM_SGT_I32 5
#define LOOM_SGT_U32 6
#define LOOM_SGT_I64 7
#define LOOM_SGT_U64 8
#define LOOM_SGT_F16 9
#define LOOM_SGT_F32 10
#define LOOM_SGT_F64 11
/* functions of the folds */
#define LOOM_SGF_ADD 1
#define LOOM_SGF_MUL 2
#define LOOM_SGF_MIN 3
#define LOOM_SGF_MAX 4
#define LOOM_SGF_AND 5
#define LOOM_SGF_OR 6
#define LOOM_SGF_XOR 7
#define LOOM_SGF_LAND 8
#define LOOM_SGF_LOR 9
#define LOOM_SGF_LXOR 10
/* the sub-group sizes a kernel may require (intel_reqd_sub_group_size) */
#define LOOM_SG_MIN_SIZE 4
#define LOOM_SG_MAX_SIZE 64

#endif
