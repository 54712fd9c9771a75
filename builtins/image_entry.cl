/* The image builtins under the names programs call them by (OpenCL C 2.0,
 * 6.13.14: read_image{f,i,ui,h} with and without a sampler, write_image{f,
 * i,ui,h}, the get_image_* queries), for every image type and access
 * qualifier, with depth images, read-write images and 3D image writes; no
 * mipmaps, MSAA or GL sharing.
 *
 * A program's calls keep Clang's mangled names, but LoomCL's front end
 * turns their image arguments into `__constant struct loom_image *` and
 * their samplers into int (loom_image.h). Each builtin is therefore defined
 * here as a plain function whose name is the mangled one, with the lowered
 * parameter types, built by token pasting from the pieces of the mangling:
 * <length><name> of the function, the image type with its access suffix
 * (_ro, _wo, _rw), 11ocl_sampler, then the coordinate and colour types
 * (i, Dv2_i, Dv4_f, ..., S0_ where the Itanium ABI substitutes a repeated
 * int4). tests/builtins/image_builtins_complete.sh checks that every
 * overload Clang declares is defined. */
#include "image_impl.h"

/* ---- coordinates as 4-vectors ---- */

static INLINE OVL int4 loom_ent_i4(int c) { return (int4)(c, 0, 0, 0); }
static INLINE OVL int4 loom_ent_i4(int2 c) { return (int4)(c, 0, 0); }
static INLINE OVL int4 loom_ent_i4(int4 c) { return c; }
static INLINE OVL float4 loom_ent_f4(float c) { return (float4)(c, 0.0f, 0.0f, 0.0f); }
static INLINE OVL float4 loom_ent_f4(float2 c) { return (float4)(c, 0.0f, 0.0f); }
static INLINE OVL float4 loom_ent_f4(float4 c) { return c; }

/* "read_imageh ... returns half4" (cl_khr_fp16): read_imagef's value
 * rounded to half */
#define LOOM_H(x) convert_half4(x)

/* ---- the image types ----
 * M(image mangling, shape, int coordinate type, its mangling, float
 * coordinate type, its mangling, mangling of an int4 colour after the int
 * coordinate) */
#define LOOM_COLOR_IMAGES(M, ...)                                              \
  M(__VA_ARGS__, 14ocl_image1d, LOOM_SHAPE_1D, int, i, float, f, Dv4_i)       \
  M(__VA_ARGS__, 20ocl_image1d_array, LOOM_SHAPE_1D_ARRAY, int2, Dv2_i, float2, \
    Dv2_f, Dv4_i)                                                              \
  M(__VA_ARGS__, 14ocl_image2d, LOOM_SHAPE_2D, int2, Dv2_i, float2, Dv2_f, Dv4_i) \
  M(__VA_ARGS__, 20ocl_image2d_array, LOOM_SHAPE_2D_ARRAY, int4, Dv4_i, float4, \
    Dv4_f, S0_)                                                                \
  M(__VA_ARGS__, 14ocl_image3d, LOOM_SHAPE_3D, int4, Dv4_i, float4, Dv4_f, S0_)
/* "The built-in function calls to read images with a sampler are not
 * supported for image1d_buffer_t image types." */
#define LOOM_BUFFER_IMAGES(M, ...)                                             \
  M(__VA_ARGS__, 21ocl_image1d_buffer, LOOM_SHAPE_1D, int, i, float, f, Dv4_i)
#define LOOM_DEPTH_IMAGES(M, ...)                                              \
  M(__VA_ARGS__, 20ocl_image2d_depth, LOOM_SHAPE_2D, int2, Dv2_i, float2, Dv2_f, \
    Dv4_i)                                                                     \
  M(__VA_ARGS__, 26ocl_image2d_array_depth, LOOM_SHAPE_2D_ARRAY, int4, Dv4_i, \
    float4, Dv4_f, S0_)

/* ---- reads with a sampler (read_only images only) ---- */

#define LOOM_SAMPLED(unused, IMG, SHAPE, IC, ICM, FC, FCM, I4M)                \
  float4 _Z11read_imagef##IMG##_ro11ocl_sampler##ICM(loom_img_t img, int smp, IC c) { \
    return loom_img_sample_fi(img, smp, loom_ent_i4(c), SHAPE);               \
  }                                                                            \
  float4 _Z11read_imagef##IMG##_ro11ocl_sampler##FCM(loom_img_t img, int smp, FC c) { \
    return loom_img_sample_f(img, smp, loom_ent_f4(c), SHAPE);                \
  }                                                                            \
  int4 _Z11read_imagei##IMG##_ro11ocl_sampler##ICM(loom_img_t img, int smp, IC c) { \
    return as_int4(loom_img_sample_ui(img, smp, loom_ent_i4(c), SHAPE));      \
  }                                                                            \
  int4 _Z11read_imagei##IMG##_ro11ocl_sampler##FCM(loom_img_t img, int smp, FC c) { \
    return as_int4(loom_img_sample_u(img, smp, loom_ent_f4(c), SHAPE));       \
  }                                                                            \
  uint4 _Z12read_imageui##IMG##_ro11ocl_sampler##ICM(loom_img_t img, int smp, IC c) { \
    return loom_img_sample_ui(img, smp, loom_ent_i4(c), SHAPE);               \
  }                                                                            \
  uint4 _Z12read_imageui##IMG##_ro11ocl_sampler##FCM(loom_img_t img, int smp, FC c) { \
    return loom_img_sample_u(img, smp, loom_ent_f4(c), SHAPE);                \
  }                                                                            \
  half4 _Z11read_imageh##IMG##_ro11ocl_sampler##ICM(loom_img_t img, int smp, IC c) { \
    return LOOM_H(loom_img_sample_fi(img, smp, loom_ent_i4(c), SHAPE));       \
  }                                                                            \
  half4 _Z11read_imageh##IMG##_ro11ocl_sampler##FCM(loom_img_t img, int smp, FC c) { \
    return LOOM_H(loom_img_sample_f(img, smp, loom_ent_f4(c), SHAPE));        \
  }
LOOM_COLOR_IMAGES(LOOM_SAMPLED, _)

/* depth images: "float read_imagef(read_only image2d_depth_t image,
 * sampler_t sampler, int2 coord)": the depth channel */
#define LOOM_SAMPLED_DEPTH(unused, IMG, SHAPE, IC, ICM, FC, FCM, I4M)          \
  float _Z11read_imagef##IMG##_ro11ocl_sampler##ICM(loom_img_t img, int smp, IC c) { \
    return loom_img_sample_fi(img, smp, loom_ent_i4(c), SHAPE).x;             \
  }                                                                            \
  float _Z11read_imagef##IMG##_ro11ocl_sampler##FCM(loom_img_t img, int smp, FC c) { \
    return loom_img_sample_f(img, smp, loom_ent_f4(c), SHAPE).x;              \
  }
LOOM_DEPTH_IMAGES(LOOM_SAMPLED_DEPTH, _)

/* ---- reads without a sampler (read_only and read_write images) ---- */

#define LOOM_FETCHED(ACC, IMG, SHAPE, IC, ICM, FC, FCM, I4M)                   \
  float4 _Z11read_imagef##IMG##_##ACC##ICM(loom_img_t img, IC c) {             \
    return loom_img_fetch_f(img, loom_ent_i4(c), SHAPE);                      \
  }                                                                            \
  int4 _Z11read_imagei##IMG##_##ACC##ICM(loom_img_t img, IC c) {               \
    return as_int4(loom_img_fetch_u(img, loom_ent_i4(c), SHAPE));             \
  }                                                                            \
  uint4 _Z12read_imageui##IMG##_##ACC##ICM(loom_img_t img, IC c) {             \
    return loom_img_fetch_u(img, loom_ent_i4(c), SHAPE);                      \
  }                                                                            \
  half4 _Z11read_imageh##IMG##_##ACC##ICM(loom_img_t img, IC c) {              \
    return LOOM_H(loom_img_fetch_f(img, loom_ent_i4(c), SHAPE));              \
  }
#define LOOM_FETCHED_DEPTH(ACC, IMG, SHAPE, IC, ICM, FC, FCM, I4M)             \
  float _Z11read_imagef##IMG##_##ACC##ICM(loom_img_t img, IC c) {              \
    return loom_img_fetch_f(img, loom_ent_i4(c), SHAPE).x;                    \
  }
#define LOOM_ALL_FETCHED(ACC)                                                  \
  LOOM_COLOR_IMAGES(LOOM_FETCHED, ACC)                                         \
  LOOM_BUFFER_IMAGES(LOOM_FETCHED, ACC)                                        \
  LOOM_DEPTH_IMAGES(LOOM_FETCHED_DEPTH, ACC)
LOOM_ALL_FETCHED(ro)
LOOM_ALL_FETCHED(rw)

/* ---- writes (write_only and read_write images) ---- */

#define LOOM_WRITTEN(ACC, IMG, SHAPE, IC, ICM, FC, FCM, I4M)                   \
  void _Z12write_imagef##IMG##_##ACC##ICM##Dv4_f(loom_img_t img, IC c, float4 v) { \
    loom_img_write_f(img, loom_ent_i4(c), v, SHAPE);                          \
  }                                                                            \
  void _Z12write_imagei##IMG##_##ACC##ICM##I4M(loom_img_t img, IC c, int4 v) { \
    loom_img_write_i(img, loom_ent_i4(c), v, SHAPE);                          \
  }                                                                            \
  void _Z13write_imageui##IMG##_##ACC##ICM##Dv4_j(loom_img_t img, IC c, uint4 v) { \
    loom_img_write_u(img, loom_ent_i4(c), v, SHAPE);                          \
  }                                                                            \
  /* "write_imageh": the colour as write_imagef writes it */                  \
  void _Z12write_imageh##IMG##_##ACC##ICM##Dv4_Dh(loom_img_t img, IC c, half4 v) { \
    loom_img_write_f(img, loom_ent_i4(c), convert_float4(v), SHAPE);          \
  }
/* "void write_imagef(aQual image2d_depth_t image, int2 coord, float depth)" */
#define LOOM_WRITTEN_DEPTH(ACC, IMG, SHAPE, IC, ICM, FC, FCM, I4M)             \
  void _Z12write_imagef##IMG##_##ACC##ICM##f(loom_img_t img, IC c, float d) {  \
    loom_img_write_f(img, loom_ent_i4(c), (float4)(d, 0.0f, 0.0f, 0.0f), SHAPE); \
  }
#define LOOM_ALL_WRITTEN(ACC)                                                  \
  LOOM_COLOR_IMAGES(LOOM_WRITTEN, ACC)                                         \
  LOOM_BUFFER_IMAGES(LOOM_WRITTEN, ACC)                                        \
  LOOM_DEPTH_IMAGES(LOOM_WRITTEN_DEPTH, ACC)
LOOM_ALL_WRITTEN(wo)
LOOM_ALL_WRITTEN(rw)

/* ---- queries (every access qualifier) ---- */

/* "Return the image width in pixels", "Return the channel data type",
 * "Return the image channel order" */
#define LOOM_QUERY_ALL(ACC, IMG, ...)                                          \
  int _Z15get_image_width##IMG##_##ACC(loom_img_t img) { return img->width; }  \
  int _Z27get_image_channel_data_type##IMG##_##ACC(loom_img_t img) {           \
    return img->channel_type;                                                  \
  }                                                                            \
  int _Z23get_image_channel_order##IMG##_##ACC(loom_img_t img) {               \
    return img->channel_order;                                                 \
  }
/* "Return the image height in pixels"; "Return the 2D image width and
 * height as an int2 type. The width is returned in the x component, and the
 * height in the y component." */
#define LOOM_QUERY_2D(ACC, IMG, ...)                                           \
  int _Z16get_image_height##IMG##_##ACC(loom_img_t img) { return img->height; } \
  int2 _Z13get_image_dim##IMG##_##ACC(loom_img_t img) {                        \
    return (int2)(img->width, img->height);                                    \
  }
/* "Return the number of images in the 2D image array" (and 1D array) */
#define LOOM_QUERY_ARRAY(ACC, IMG, ...)                                        \
  size_t _Z20get_image_array_size##IMG##_##ACC(loom_img_t img) {               \
    return (size_t)img->array_size;                                            \
  }
/* "Return the 3D image width, height, and depth as an int4 type. The
 * width is returned in the x component, height in the y component, depth
 * in the z component and the w component is 0." */
#define LOOM_QUERY_3D(ACC)                                                     \
  int _Z16get_image_height14ocl_image3d_##ACC(loom_img_t img) { return img->height; } \
  int _Z15get_image_depth14ocl_image3d_##ACC(loom_img_t img) { return img->depth; } \
  int4 _Z13get_image_dim14ocl_image3d_##ACC(loom_img_t img) {                  \
    return (int4)(img->width, img->height, img->depth, 0);                     \
  }

#define LOOM_QUERIES(ACC)                                                      \
  LOOM_COLOR_IMAGES(LOOM_QUERY_ALL, ACC)                                       \
  LOOM_BUFFER_IMAGES(LOOM_QUERY_ALL, ACC)                                      \
  LOOM_DEPTH_IMAGES(LOOM_QUERY_ALL, ACC)                                       \
  LOOM_QUERY_2D(ACC, 14ocl_image2d)                                            \
  LOOM_QUERY_2D(ACC, 20ocl_image2d_array)                                      \
  LOOM_DEPTH_IMAGES(LOOM_QUERY_2D, ACC)                                        \
  LOOM_QUERY_ARRAY(ACC, 20ocl_image1d_array)                                   \
  LOOM_QUERY_ARRAY(ACC, 20ocl_image2d_array)                                   \
  LOOM_QUERY_ARRAY(ACC, 26ocl_image2d_array_depth)                             \
  LOOM_QUERY_3D(ACC)
LOOM_QUERIES(ro)
LOOM_QUERIES(wo)
LOOM_QUERIES(rw)
