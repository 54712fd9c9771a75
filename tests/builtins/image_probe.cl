/* Calls every image builtin overload that OpenCL C 3.0 declares with images,
 * read-write images, 3D image writes, depth images and cl_khr_fp16 (no
 * mipmaps, MSAA or GL sharing). image_builtins_complete.sh compiles it and
 * checks that the builtin library defines each function it declares. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

/* read_image{f,i,ui,h} of a colour image with a sampler, integer and float
 * coordinates */
#define SAMPLED(img, ic, fc)                                                   \
  *f++ = read_imagef(img, s, ic);                                              \
  *f++ = read_imagef(img, s, fc);                                              \
  *i++ = read_imagei(img, s, ic);                                              \
  *i++ = read_imagei(img, s, fc);                                              \
  *u++ = read_imageui(img, s, ic);                                             \
  *u++ = read_imageui(img, s, fc);                                             \
  *h++ = read_imageh(img, s, ic);                                              \
  *h++ = read_imageh(img, s, fc);
/* the sampler-less reads */
#define FETCHED(img, ic)                                                       \
  *f++ = read_imagef(img, ic);                                                 \
  *i++ = read_imagei(img, ic);                                                 \
  *u++ = read_imageui(img, ic);                                                \
  *h++ = read_imageh(img, ic);
#define WRITTEN(img, ic)                                                       \
  write_imagef(img, ic, f[0]);                                                 \
  write_imagei(img, ic, i[0]);                                                 \
  write_imageui(img, ic, u[0]);                                                \
  write_imageh(img, ic, h[0]);
/* queries every image type has */
#define QUERIED(img)                                                           \
  *q++ = get_image_width(img);                                                 \
  *q++ = get_image_channel_data_type(img);                                     \
  *q++ = get_image_channel_order(img);
#define QUERIED_2D(img)                                                        \
  QUERIED(img) *q++ = get_image_height(img);                                   \
  *d2++ = get_image_dim(img);
/* the 3D image's get_image_dim is an int4 */
#define QUERIED_3D(img)                                                        \
  QUERIED(img) *q++ = get_image_height(img);                                   \
  *q++ = get_image_depth(img);                                                 \
  *d4++ = get_image_dim(img);

#define IMAGE_ARGS(acc)                                                        \
  acc image1d_t i1, acc image1d_buffer_t ib, acc image1d_array_t i1a,          \
      acc image2d_t i2, acc image2d_array_t i2a, acc image3d_t i3,             \
      acc image2d_depth_t d2i, acc image2d_array_depth_t d2a
#define OUT_ARGS                                                               \
  global float4 *f, global int4 *i, global uint4 *u, global half4 *h,          \
      global float *df, global int *q, global int2 *d2, global int4 *d4,       \
      global size_t *z

/* every query, for any access qualifier */
#define ALL_QUERIES                                                            \
  QUERIED(i1) QUERIED(ib) QUERIED(i1a) QUERIED_2D(i2) QUERIED_2D(i2a)          \
  QUERIED_3D(i3) QUERIED_2D(d2i) QUERIED_2D(d2a)                               \
  *z++ = get_image_array_size(i1a);                                            \
  *z++ = get_image_array_size(i2a);                                            \
  *z++ = get_image_array_size(d2a);
#define ALL_FETCHES                                                            \
  FETCHED(i1, 1) FETCHED(ib, 1) FETCHED(i1a, (int2)(1, 2))                     \
  FETCHED(i2, (int2)(1, 2)) FETCHED(i2a, (int4)(1, 2, 3, 0))                   \
  FETCHED(i3, (int4)(1, 2, 3, 0))                                              \
  *df++ = read_imagef(d2i, (int2)(1, 2));                                      \
  *df++ = read_imagef(d2a, (int4)(1, 2, 3, 0));

#define ALL_WRITES                                                             \
  WRITTEN(i1, 1) WRITTEN(ib, 1) WRITTEN(i1a, (int2)(1, 2))                     \
  WRITTEN(i2, (int2)(1, 2)) WRITTEN(i2a, (int4)(1, 2, 3, 0))                   \
  WRITTEN(i3, (int4)(1, 2, 3, 0))                                              \
  write_imagef(d2i, (int2)(1, 2), df[0]);                                      \
  write_imagef(d2a, (int4)(1, 2, 3, 0), df[0]);

kernel void probe_ro(IMAGE_ARGS(read_only), sampler_t s, OUT_ARGS) {
  SAMPLED(i1, 1, 0.5f)
  SAMPLED(i1a, (int2)(1, 2), (float2)(0.5f, 2.0f))
  SAMPLED(i2, (int2)(1, 2), (float2)(0.5f, 0.5f))
  SAMPLED(i2a, (int4)(1, 2, 3, 0), (float4)(0.5f, 0.5f, 3.0f, 0.0f))
  SAMPLED(i3, (int4)(1, 2, 3, 0), (float4)(0.5f, 0.5f, 0.5f, 0.0f))
  *df++ = read_imagef(d2i, s, (int2)(1, 2));
  *df++ = read_imagef(d2i, s, (float2)(0.5f, 0.5f));
  *df++ = read_imagef(d2a, s, (int4)(1, 2, 3, 0));
  *df++ = read_imagef(d2a, s, (float4)(0.5f, 0.5f, 3.0f, 0.0f));
  ALL_FETCHES
  ALL_QUERIES
}

kernel void probe_wo(IMAGE_ARGS(write_only), OUT_ARGS) {
  ALL_WRITES
  ALL_QUERIES
}

kernel void probe_rw(IMAGE_ARGS(read_write), OUT_ARGS) {
  ALL_FETCHES
  ALL_WRITES
  ALL_QUERIES
}
