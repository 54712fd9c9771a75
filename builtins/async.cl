/* Async copies and prefetch (OpenCL C 1.13.10). Every work-item of the group
 * calls these with the same arguments, so each copies a strided share of the
 * elements right away; wait_group_events is then a work-group barrier, after
 * which the whole copy is visible to the group. The returned event is the one
 * passed in: there is nothing left to track. prefetch is only a hint. */
#include "loom_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* Elements are copied as CT: the same type, except that 3-vectors move as
 * 4-vectors so that their padding is copied too, byte for byte. */
#define COPY(T, CT, DST_AS, SRC_AS)                                            \
  event_t OVL async_work_group_copy(DST_AS T *dst, const SRC_AS T *src,        \
                                    size_t num_gentypes, event_t event) {      \
    DST_AS CT *d = (DST_AS CT *)dst;                                           \
    const SRC_AS CT *s = (const SRC_AS CT *)src;                               \
    size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);   \
    for (size_t i = get_local_linear_id(); i < num_gentypes; i += step)        \
      d[i] = s[i];                                                             \
    return event;                                                              \
  }
/* the stride applies to the global side: src_stride when importing into
 * local memory, dst_stride when exporting from it */
#define STRIDED(T, CT)                                                         \
  event_t OVL async_work_group_strided_copy(__local T *dst,                    \
                                            const __global T *src,             \
                                            size_t num_gentypes,               \
                                            size_t src_stride, event_t event) { \
    __local CT *d = (__local CT *)dst;                                         \
    const __global CT *s = (const __global CT *)src;                           \
    size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);   \
    for (size_t i = get_local_linear_id(); i < num_gentypes; i += step)        \
      d[i] = s[i * src_stride];                                                \
    return event;                                                              \
  }                                                                            \
  event_t OVL async_work_group_strided_copy(__global T *dst,                   \
                                            const __local T *src,              \
                                            size_t num_gentypes,               \
                                            size_t dst_stride, event_t event) { \
    __global CT *d = (__global CT *)dst;                                       \
    const __local CT *s = (const __local CT *)src;                             \
    size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);   \
    for (size_t i = get_local_linear_id(); i < num_gentypes; i += step)        \
      d[i * dst_stride] = s[i];                                                \
    return event;                                                              \
  }
#define PREFETCH(T)                                                            \
  void OVL prefetch(const __global T *p, size_t num_gentypes) {                \
    (void)p;                                                                   \
    (void)num_gentypes;                                                        \
  }
#define ALL(T, CT)                                                             \
  COPY(T, CT, __local, __global) COPY(T, CT, __global, __local)                \
  STRIDED(T, CT) PREFETCH(T)
#define ALL_WIDTHS(S)                                                          \
  ALL(S, S) ALL(S##2, S##2) ALL(S##3, S##4) ALL(S##4, S##4) ALL(S##8, S##8)    \
  ALL(S##16, S##16)

ALL_WIDTHS(char) ALL_WIDTHS(uchar) ALL_WIDTHS(short) ALL_WIDTHS(ushort)
ALL_WIDTHS(int) ALL_WIDTHS(uint) ALL_WIDTHS(long) ALL_WIDTHS(ulong)
ALL_WIDTHS(float) ALL_WIDTHS(double) ALL_WIDTHS(half)

/* OpenCL C 1.x passes a private array of events; 2.0 a generic pointer */
void OVL wait_group_events(int num_events, __private event_t *event_list) {
  (void)num_events;
  (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
void OVL wait_group_events(int num_events, __generic event_t *event_list) {
  (void)num_events;
  (void)event_list;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
