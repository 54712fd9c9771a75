/* cl_intel_subgroups' block reads and writes of 2D images. A block is
 * N rows of sub-group-size 32-bit words starting at byte column coord.x
 * and row coord.y; work-item i of the sub-group has column i of each row,
 * row k in component k. Reads outside the image take the nearest word
 * inside it; writes outside are dropped.
 *
 * Defined under their mangled names with the lowered image type, as the
 * other image builtins (image_entry.cl explains why). */
#include "image_impl.h"

static INLINE __global uint *sgi_word(loom_img_t img, int col_bytes, int row, bool clamp,
                                      bool *inside) {
  int last_col = img->width * img->pixel_size - 4;
  *inside = col_bytes >= 0 && col_bytes <= last_col && row >= 0 && row < img->height;
  if (clamp) {
    col_bytes = col_bytes < 0 ? 0 : col_bytes > last_col ? last_col : col_bytes;
    row = row < 0 ? 0 : row >= img->height ? img->height - 1 : row;
  }
  col_bytes &= ~3;
  return (__global uint *)(img->data + (long)row * img->row_pitch + col_bytes);
}

static INLINE uint sgi_read(loom_img_t img, int2 coord, int k) {
  bool inside;
  int lane = (int)get_sub_group_local_id();
  return *sgi_word(img, coord.x + 4 * lane, coord.y + k, true, &inside);
}

static INLINE void sgi_write(loom_img_t img, int2 coord, int k, uint v) {
  bool inside;
  int lane = (int)get_sub_group_local_id();
  __global uint *p = sgi_word(img, coord.x + 4 * lane, coord.y + k, false, &inside);
  if (inside)
    *p = v;
}

#define SGI_RW(ACC)                                                                      \
  uint _Z26intel_sub_group_block_read14ocl_image2d_##ACC##Dv2_i(loom_img_t img, int2 c) { \
    return sgi_read(img, c, 0);                                                          \
  }                                                                                      \
  uint2 _Z27intel_sub_group_block_read214ocl_image2d_##ACC##Dv2_i(loom_img_t img, int2 c) { \
    return (uint2)(sgi_read(img, c, 0), sgi_read(img, c, 1));                            \
  }                                                                                      \
  uint4 _Z27intel_sub_group_block_read414ocl_image2d_##ACC##Dv2_i(loom_img_t img, int2 c) { \
    return (uint4)(sgi_read(img, c, 0), sgi_read(img, c, 1), sgi_read(img, c, 2),       \
                   sgi_read(img, c, 3));                                                 \
  }                                                                                      \
  uint8 _Z27intel_sub_group_block_read814ocl_image2d_##ACC##Dv2_i(loom_img_t img, int2 c) { \
    uint8 r;                                                                             \
    r.s0 = sgi_read(img, c, 0), r.s1 = sgi_read(img, c, 1), r.s2 = sgi_read(img, c, 2);  \
    r.s3 = sgi_read(img, c, 3), r.s4 = sgi_read(img, c, 4), r.s5 = sgi_read(img, c, 5);  \
    r.s6 = sgi_read(img, c, 6), r.s7 = sgi_read(img, c, 7);                              \
    return r;                                                                            \
  }
SGI_RW(ro)
SGI_RW(rw)

#define SGI_W(ACC)                                                                       \
  void _Z27intel_sub_group_block_write14ocl_image2d_##ACC##Dv2_ij(loom_img_t img, int2 c, \
                                                                  uint v) {              \
    sgi_write(img, c, 0, v);                                                             \
  }                                                                                      \
  void _Z28intel_sub_group_block_write214ocl_image2d_##ACC##Dv2_iDv2_j(loom_img_t img,    \
                                                                       int2 c, uint2 v) { \
    sgi_write(img, c, 0, v.x), sgi_write(img, c, 1, v.y);                                \
  }                                                                                      \
  void _Z28intel_sub_group_block_write414ocl_image2d_##ACC##Dv2_iDv4_j(loom_img_t img,    \
                                                                       int2 c, uint4 v) { \
    sgi_write(img, c, 0, v.x), sgi_write(img, c, 1, v.y);                                \
    sgi_write(img, c, 2, v.z), sgi_write(img, c, 3, v.w);                                \
  }                                                                                      \
  void _Z28intel_sub_group_block_write814ocl_image2d_##ACC##Dv2_iDv8_j(loom_img_t img,    \
                                                                       int2 c, uint8 v) { \
    sgi_write(img, c, 0, v.s0), sgi_write(img, c, 1, v.s1), sgi_write(img, c, 2, v.s2);  \
    sgi_write(img, c, 3, v.s3), sgi_write(img, c, 4, v.s4), sgi_write(img, c, 5, v.s5);  \
    sgi_write(img, c, 6, v.s6), sgi_write(img, c, 7, v.s7);                              \
  }
SGI_W(wo)
SGI_W(rw)
