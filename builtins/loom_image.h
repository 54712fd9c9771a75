/* The contract between the runtime and the builtin library for images and
 * samplers. Included from both OpenCL C (builtins/image*.cl) and C
 * (src/core/image.c, which _Static_asserts the layout).
 *
 * An image kernel argument is a pointer, in the constant address space, to
 * the image's descriptor below: the front end's lower-opaque-types pass
 * (frontend/opaque_types.c) turns every image type into
 * `ptr addrspace(2)`. A sampler is its 32-bit CLK_* bit field (the same
 * encoding Clang gives `constant sampler_t` initialisers): sampler types
 * become i32, and __translate_sampler_initializer(bits) becomes bits.
 *
 * Builtins that take images are defined in the library under their mangled
 * names with the lowered parameter types, so that the program's calls link
 * to them once its types are lowered (see builtins/image_*.cl). */
#ifndef LOOM_IMAGE_H
#define LOOM_IMAGE_H

#ifdef __OPENCL_C_VERSION__
#define LOOM_IMG_I32 int
#define LOOM_IMG_I64 long
#define LOOM_IMG_DATA __global uchar *
#else
#include <stdint.h>
#define LOOM_IMG_I32 int32_t
#define LOOM_IMG_I64 int64_t
#define LOOM_IMG_DATA unsigned char *
#endif

/* One image, as kernels see it. Sizes a dimension does not have are 1;
 * array_size is 1 for images that are not arrays. Pixel (x, y, z) of layer l
 * lies at data + x * pixel_size + y * row_pitch + z * slice_pitch, where for
 * 1D arrays the layer is y (and row_pitch is the layer pitch: equal to
 * slice_pitch) and for 2D arrays it is z. */
struct loom_image {
  LOOM_IMG_DATA data;        /* pixel (0, 0, 0) of layer 0 */
  LOOM_IMG_I64 row_pitch;    /* bytes between rows */
  LOOM_IMG_I64 slice_pitch;  /* bytes between 2D slices or array layers */
  LOOM_IMG_I32 width;
  LOOM_IMG_I32 height;
  LOOM_IMG_I32 depth;
  LOOM_IMG_I32 array_size;
  LOOM_IMG_I32 channel_order; /* CL_R ... CL_sBGRA, CL_DEPTH (cl.h values = CLK_* values) */
  LOOM_IMG_I32 channel_type;  /* CL_SNORM_INT8 ... CL_UNORM_INT_101010_2 */
  LOOM_IMG_I32 pixel_size;    /* bytes per pixel */
  LOOM_IMG_I32 num_channels;  /* channels stored per pixel (CL_RGB with 565: 3) */
  LOOM_IMG_I32 image_type;    /* CL_MEM_OBJECT_IMAGE1D ... IMAGE3D */
  LOOM_IMG_I32 num_mip_levels; /* 0: LoomCL images have no mipmaps */
  LOOM_IMG_I32 num_samples;    /* 0 */
  LOOM_IMG_I32 reserved;
};

#define LOOM_IMAGE_OFFSET_DATA 0
#define LOOM_IMAGE_OFFSET_ROW_PITCH 8
#define LOOM_IMAGE_OFFSET_SLICE_PITCH 16
#define LOOM_IMAGE_OFFSET_WIDTH 24
#define LOOM_IMAGE_OFFSET_CHANNEL_ORDER 40
#define LOOM_IMAGE_OFFSET_CHANNEL_TYPE 44
#define LOOM_IMAGE_OFFSET_PIXEL_SIZE 48
#define LOOM_IMAGE_OFFSET_NUM_CHANNELS 52
#define LOOM_IMAGE_OFFSET_IMAGE_TYPE 56
#define LOOM_IMAGE_SIZE 72

/* The sampler bit field (opencl-c-base.h's CLK_* values) */
#define LOOM_SAMPLER_NORMALIZED 0x1    /* CLK_NORMALIZED_COORDS_TRUE */
#define LOOM_SAMPLER_ADDRESS_MASK 0xE  /* CLK_ADDRESS_* */
#define LOOM_SAMPLER_ADDRESS_NONE 0x0
#define LOOM_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2
#define LOOM_SAMPLER_ADDRESS_CLAMP 0x4
#define LOOM_SAMPLER_ADDRESS_REPEAT 0x6
#define LOOM_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8
#define LOOM_SAMPLER_FILTER_NEAREST 0x10
#define LOOM_SAMPLER_FILTER_LINEAR 0x20

#endif
