/* Shared declarations of the image builtins (OpenCL C 2.0, 6.13.14, and the
 * chapter "Image Addressing and Filtering").
 *
 * The library is layered in three files:
 * - image_pixel.cl: one pixel. Its address, the load and store of its
 *   channels, and the conversions between the stored channels and the
 *   RGBA values the kernel sees (format, channel order, sRGB, border colour).
 * - image_sample.cl: coordinates. Addressing modes, nearest and linear
 *   filtering, array layer selection, the sampler-less reads and the writes.
 * - image_entry.cl: the builtins under their mangled names (see
 *   loom_image.h), each one call into image_sample.cl.
 *
 * Every image is addressed as if it were 3D: (i, j, k) with extent
 * (width, height, depth), where the k of an array image is its layer (its
 * pixel lies at data + i * pixel_size + j * row_pitch + k * slice_pitch).
 * A "shape" says how a builtin's coordinate maps onto (i, j, k): how many
 * axes are filtered (1 to 3) and which coordinate component, if any, is the
 * layer. Shapes are constants in every entry point, so after inlining all
 * the tests on them fold away.
 *
 * Nothing here reads or writes outside the image: every index is clamped
 * into the image before it is used (where the spec leaves the result of an
 * out-of-range coordinate undefined), and out-of-range writes are dropped. */
#ifndef LOOM_IMAGE_IMPL_H
#define LOOM_IMAGE_IMPL_H
#include "loom_builtins.h"
#include "loom_image.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef __constant struct loom_image *loom_img_t;

/* ---- shapes: filtered axes | layer component << 2 ---- */
#define LOOM_SHAPE(dims, layer) ((dims) | ((layer) << 2))
#define LOOM_SHAPE_DIMS(shape) ((shape)&3)
#define LOOM_SHAPE_LAYER(shape) ((shape) >> 2)
#define LOOM_SHAPE_1D LOOM_SHAPE(1, 0)       /* image1d_t, image1d_buffer_t */
#define LOOM_SHAPE_1D_ARRAY LOOM_SHAPE(1, 1) /* layer: coord.y */
#define LOOM_SHAPE_2D LOOM_SHAPE(2, 0)       /* image2d_t, image2d_depth_t */
#define LOOM_SHAPE_2D_ARRAY LOOM_SHAPE(2, 2) /* layer: coord.z */
#define LOOM_SHAPE_3D LOOM_SHAPE(3, 0)

/* ---- one pixel (image_pixel.cl) ---- */

/* the pixel at (i, j, k) of ijk (in range) as read_imagef sees it: RGBA,
 * missing channels 0 and alpha 1, sRGB converted to linear */
float4 loom_img_texel_f(loom_img_t img, int4 ijk);
/* the same for read_imagei/read_imageui: the stored integers, sign-extended
 * for the signed formats, missing channels 0 and alpha 1 */
uint4 loom_img_texel_u(loom_img_t img, int4 ijk);
/* the border colour of CLK_ADDRESS_CLAMP, for read_imagef and for the
 * integer reads */
float4 loom_img_border_f(loom_img_t img);
uint4 loom_img_border_u(loom_img_t img);
/* converts and stores a colour at (i, j, k) of ijk (in range) */
void loom_img_store_f(loom_img_t img, int4 ijk, float4 rgba);
void loom_img_store_i(loom_img_t img, int4 ijk, int4 rgba);
void loom_img_store_u(loom_img_t img, int4 ijk, uint4 rgba);

/* ---- coordinates (image_sample.cl) ---- */

/* read_image{f,i,ui} with a sampler and float or integer coordinates */
float4 loom_img_sample_f(loom_img_t img, int smp, float4 coord, int shape);
float4 loom_img_sample_fi(loom_img_t img, int smp, int4 coord, int shape);
uint4 loom_img_sample_u(loom_img_t img, int smp, float4 coord, int shape);
uint4 loom_img_sample_ui(loom_img_t img, int smp, int4 coord, int shape);
/* the sampler-less reads */
float4 loom_img_fetch_f(loom_img_t img, int4 coord, int shape);
uint4 loom_img_fetch_u(loom_img_t img, int4 coord, int shape);
/* write_image{f,i,ui}: dropped when coord lies outside the image */
void loom_img_write_f(loom_img_t img, int4 coord, float4 color, int shape);
void loom_img_write_i(loom_img_t img, int4 coord, int4 color, int shape);
void loom_img_write_u(loom_img_t img, int4 coord, uint4 color, int shape);

#endif
