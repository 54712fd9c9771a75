/* Rectangular buffer transfers: clEnqueueReadBufferRect, clEnqueueWriteBufferRect
 * and clEnqueueCopyBufferRect in 2D and 3D against a host reference, pitch
 * defaults, overlap detection within one buffer, and every error path. */
#include "harness.h"
#include <stdbool.h>
#include <stdint.h>

static struct test_env env;

/* Host reference: copies a rectangle between two byte arrays. */
static void ref_copy(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice,
                     const unsigned char *src, const size_t sorg[3], size_t srow,
                     size_t sslice, const size_t region[3]) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memcpy(dst + (dorg[2] + z) * dslice + (dorg[1] + y) * drow + dorg[0],
             src + (sorg[2] + z) * sslice + (sorg[1] + y) * srow + sorg[0], region[0]);
}

static unsigned lcg = 12345;
static unsigned rnd(unsigned n) {
  lcg = lcg * 1103515245u + 12345u;
  return (lcg >> 8) % n;
}

static void fill_random(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)rnd(256);
}

#define BUF 40000

/* One randomised round trip of write rect, copy rect, read rect. */
static void round_trip(bool three_d) {
  cl_int err;
  unsigned char *host = malloc(BUF), *dev_ref = malloc(BUF), *dev2_ref = malloc(BUF);
  unsigned char *out = malloc(BUF), *out_ref = malloc(BUF), *all = malloc(BUF);
  fill_random(dev_ref, BUF);
  fill_random(dev2_ref, BUF);
  fill_random(host, BUF);
  cl_mem a = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, BUF, dev_ref, &err);
  cl_mem b = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, BUF, dev2_ref, &err);
  CHECK_OK(err);

  size_t region[3] = {1 + rnd(20), 1 + rnd(10), three_d ? 1 + rnd(6) : 1};
  size_t brow = region[0] + rnd(8), bslice = brow * (region[1] + rnd(3));
  size_t hrow = region[0] + rnd(8), hslice = hrow * (region[1] + rnd(3));
  size_t borg[3] = {rnd(5), rnd(4), three_d ? rnd(3) : 0};
  size_t horg[3] = {rnd(5), rnd(4), three_d ? rnd(3) : 0};

  /* write host -> a */
  CHECK_OK(clEnqueueWriteBufferRect(env.queue, a, CL_FALSE, borg, horg, region, brow, bslice,
                                    hrow, hslice, host, 0, NULL, NULL));
  ref_copy(dev_ref, borg, brow, bslice, host, horg, hrow, hslice, region);

  /* copy a -> b with other pitches */
  size_t crow = region[0] + rnd(5), cslice = crow * (region[1] + rnd(3));
  size_t corg[3] = {rnd(6), rnd(3), three_d ? rnd(2) : 0};
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, a, b, borg, corg, region, brow, bslice, crow,
                                   cslice, 0, NULL, NULL));
  ref_copy(dev2_ref, corg, crow, cslice, dev_ref, borg, brow, bslice, region);

  /* read b -> out */
  fill_random(out, BUF);
  memcpy(out_ref, out, BUF);
  size_t orow = region[0] + rnd(4), oslice = orow * (region[1] + rnd(2));
  size_t oorg[3] = {rnd(3), rnd(3), three_d ? rnd(2) : 0};
  CHECK_OK(clEnqueueReadBufferRect(env.queue, b, CL_TRUE, corg, oorg, region, crow, cslice,
                                   orow, oslice, out, 0, NULL, NULL));
  ref_copy(out_ref, oorg, orow, oslice, dev2_ref, corg, crow, cslice, region);
  CHECK(memcmp(out, out_ref, BUF) == 0);

  /* and nothing else of either buffer changed */
  CHECK_OK(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, BUF, all, 0, NULL, NULL));
  CHECK(memcmp(all, dev_ref, BUF) == 0);
  CHECK_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, BUF, all, 0, NULL, NULL));
  CHECK(memcmp(all, dev2_ref, BUF) == 0);

  clReleaseMemObject(a);
  clReleaseMemObject(b);
  free(host);
  free(dev_ref);
  free(dev2_ref);
  free(out);
  free(out_ref);
  free(all);
}

static void test_default_pitches(void) {
  cl_int err;
  unsigned char src[6 * 4 * 3], got[6 * 4 * 3];
  fill_random(src, sizeof src);
  cl_mem m = clCreateBuffer(env.context, 0, sizeof src, NULL, &err);
  const size_t zero[3] = {0, 0, 0}, region[3] = {6, 4, 3};
  /* all pitches 0: both sides are tightly packed, so this is a plain copy */
  CHECK_OK(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, zero, zero, region, 0, 0, 0, 0, src,
                                    0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  CHECK(memcmp(got, src, sizeof src) == 0);
  memset(got, 0, sizeof got);
  CHECK_OK(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, zero, zero, region, 6, 24, 0, 0, got,
                                   0, NULL, NULL));
  CHECK(memcmp(got, src, sizeof src) == 0);

  /* a 2D copy with the origin's z = 0 and region[2] = 1 */
  cl_mem d = clCreateBuffer(env.context, 0, sizeof src, NULL, &err);
  const size_t r2[3] = {6, 4, 1}, o1[3] = {0, 0, 0};
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, m, d, o1, o1, r2, 0, 0, 0, 0, 0, NULL, NULL));
  CHECK_OK(clEnqueueReadBuffer(env.queue, d, CL_TRUE, 0, 24, got, 0, NULL, NULL));
  CHECK(memcmp(got, src, 24) == 0);

  cl_event ev;
  CHECK_OK(clEnqueueReadBufferRect(env.queue, m, CL_FALSE, zero, zero, region, 0, 0, 0, 0, got,
                                   0, NULL, &ev));
  cl_command_type type = 0;
  CHECK_OK(clWaitForEvents(1, &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_READ_BUFFER_RECT);
  clReleaseEvent(ev);
  CHECK_OK(clEnqueueWriteBufferRect(env.queue, m, CL_FALSE, zero, zero, region, 0, 0, 0, 0,
                                    src, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_WRITE_BUFFER_RECT);
  clReleaseEvent(ev);
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, m, d, o1, o1, r2, 0, 0, 0, 0, 0, NULL, &ev));
  CHECK_OK(clWaitForEvents(1, &ev));
  CHECK_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_COPY_BUFFER_RECT);
  clReleaseEvent(ev);
  clReleaseMemObject(m);
  clReleaseMemObject(d);
}

/* A brute-force overlap answer for two rectangles in one buffer. */
static bool ref_overlap(size_t size, const size_t so[3], const size_t dorg[3],
                        const size_t region[3], size_t row, size_t slice) {
  unsigned char *mark = calloc(size, 1);
  bool hit = false;
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memset(mark + (so[2] + z) * slice + (so[1] + y) * row + so[0], 1, region[0]);
  for (size_t z = 0; z < region[2] && !hit; z++)
    for (size_t y = 0; y < region[1] && !hit; y++)
      for (size_t x = 0; x < region[0] && !hit; x++)
        hit = mark[(dorg[2] + z) * slice + (dorg[1] + y) * row + dorg[0] + x];
  free(mark);
  return hit;
}

static void test_overlap(void) {
  cl_int err;
  const size_t size = 4096;
  unsigned char *init = malloc(size), *ref = malloc(size), *got = malloc(size);
  fill_random(init, size);
  cl_mem m = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, size, init, &err);
  memcpy(ref, init, size);

  /* interleaved columns of one pitch: the rectangles' bounding ranges overlap
   * but their bytes do not */
  const size_t region[3] = {4, 8, 2}, so[3] = {0, 0, 0}, dorg[3] = {4, 0, 0};
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, m, m, so, dorg, region, 16, 160, 16, 160, 0, NULL,
                                   NULL));
  ref_copy(ref, dorg, 16, 160, ref, so, 16, 160, region);
  CHECK_OK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, size, got, 0, NULL, NULL));
  CHECK(memcmp(got, ref, size) == 0);
  const size_t d2[3] = {3, 0, 0};
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, m, so, d2, region, 16, 160, 16, 160, 0, NULL,
                                    NULL),
            CL_MEM_COPY_OVERLAP);
  /* interleaved slices and rows */
  const size_t r3[3] = {16, 4, 3}, d3[3] = {0, 4, 0}, d4[3] = {0, 3, 0};
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, m, m, so, d3, r3, 16, 128, 16, 128, 0, NULL,
                                   NULL));
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, m, so, d4, r3, 16, 128, 16, 128, 0, NULL,
                                    NULL),
            CL_MEM_COPY_OVERLAP);

  /* randomised against brute force */
  unsigned agree = 0, total = 0;
  for (int i = 0; i < 300; i++) {
    size_t reg[3] = {1 + rnd(8), 1 + rnd(5), 1 + rnd(4)};
    size_t row = reg[0] + rnd(6), slice = row * (reg[1] + rnd(3));
    size_t s[3] = {rnd(8), rnd(6), rnd(3)}, d[3] = {rnd(8), rnd(6), rnd(3)};
    size_t end_s = s[2] * slice + s[1] * row + s[0] + (reg[2] - 1) * slice +
                   (reg[1] - 1) * row + reg[0];
    size_t end_d = d[2] * slice + d[1] * row + d[0] + (reg[2] - 1) * slice +
                   (reg[1] - 1) * row + reg[0];
    if (end_s > size || end_d > size)
      continue;
    bool expect = ref_overlap(size, s, d, reg, row, slice);
    cl_int e = clEnqueueCopyBufferRect(env.queue, m, m, s, d, reg, row, slice, row, slice, 0,
                                       NULL, NULL);
    total++;
    agree += (e == (expect ? CL_MEM_COPY_OVERLAP : CL_SUCCESS));
  }
  CHECK(total > 100);
  CHECK(agree == total);

  /* sub-buffers of one parent: overlap is judged in the parent's storage */
  cl_buffer_region r1 = {0, 1024}, rr2 = {512, 1024};
  cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  cl_mem s2 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &rr2, &err);
  CHECK_OK(err);
  const size_t reg1[3] = {8, 4, 1}, z[3] = {0, 0, 0}, at512[3] = {0, 0, 4};
  /* s1 at parent 512 (z = 4 slices of 128) meets s2's origin */
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, s1, s2, at512, z, reg1, 32, 128, 32, 128, 0,
                                    NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  const size_t x8[3] = {8, 0, 0};
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, s1, s2, at512, x8, reg1, 32, 128, 32, 128, 0, NULL,
                                   NULL));
  /* different pitches are fine for different objects */
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, s1, s2, z, z, reg1, 8, 32, 64, 256, 0, NULL,
                                   NULL));
  CHECK_OK(clFinish(env.queue));
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(m);
  free(init);
  free(ref);
  free(got);
}

static void test_errors(void) {
  cl_int err;
  unsigned char host[4096];
  cl_mem m = clCreateBuffer(env.context, 0, 1000, NULL, &err);
  cl_mem d = clCreateBuffer(env.context, 0, 1000, NULL, &err);
  const size_t o[3] = {0, 0, 0}, r[3] = {10, 10, 10};
  const size_t r0[3][3] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}};

  /* read / write rect */
  for (int w = 0; w < 2; w++) {
#define RW(q, mem, bo, ho, reg, brp, bsp, hrp, hsp, ptr, n, wl)                      \
  (w ? clEnqueueWriteBufferRect(q, mem, CL_TRUE, bo, ho, reg, brp, bsp, hrp, hsp, ptr, n, wl, \
                                NULL)                                                 \
     : clEnqueueReadBufferRect(q, mem, CL_TRUE, bo, ho, reg, brp, bsp, hrp, hsp, ptr, n, wl,  \
                               NULL))
    CHECK_OK(RW(env.queue, m, o, o, r, 0, 0, 0, 0, host, 0, NULL));
    CHECK_ERR(RW(NULL, m, o, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(RW(env.queue, NULL, o, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(RW(env.queue, m, NULL, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, NULL, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, NULL, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 0, 0, NULL, 0, NULL), CL_INVALID_VALUE);
    for (int i = 0; i < 3; i++)
      CHECK_ERR(RW(env.queue, m, o, o, r0[i], 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    /* pitches */
    CHECK_ERR(RW(env.queue, m, o, o, r, 9, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 9, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 10, 99, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 10, 99, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 10, 105, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 10, 105, host, 0, NULL), CL_INVALID_VALUE);
    /* out of bounds: 1000 bytes hold exactly 10x10x10 */
    const size_t o1[3] = {1, 0, 0}, oy[3] = {0, 1, 0}, oz[3] = {0, 0, 1};
    CHECK_ERR(RW(env.queue, m, o1, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, oy, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, oz, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, o, o, r, 11, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    const size_t huge[3] = {SIZE_MAX / 2, 0, 0}, hugez[3] = {0, 0, SIZE_MAX / 4};
    CHECK_ERR(RW(env.queue, m, huge, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(RW(env.queue, m, hugez, o, r, 0, 0, 0, 0, host, 0, NULL), CL_INVALID_VALUE);
    /* the host side has no bounds to check: an origin only moves the pointer */
    const size_t h1[3] = {5, 2, 1};
    CHECK_OK(RW(env.queue, m, o, h1, r, 0, 0, 20, 200, host, 0, NULL));
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 0, 0, host, 1, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event none = NULL;
    CHECK_ERR(RW(env.queue, m, o, o, r, 0, 0, 0, 0, host, 0, &none), CL_INVALID_EVENT_WAIT_LIST);
#undef RW
  }

  /* host access flags */
  cl_mem hwo = clCreateBuffer(env.context, CL_MEM_HOST_WRITE_ONLY, 1000, NULL, &err);
  cl_mem hro = clCreateBuffer(env.context, CL_MEM_HOST_READ_ONLY, 1000, NULL, &err);
  cl_mem hna = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, 1000, NULL, &err);
  CHECK_ERR(clEnqueueReadBufferRect(env.queue, hwo, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                    NULL),
            CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueReadBufferRect(env.queue, hna, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                    NULL),
            CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteBufferRect(env.queue, hro, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0,
                                     NULL, NULL),
            CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteBufferRect(env.queue, hna, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0,
                                     NULL, NULL),
            CL_INVALID_OPERATION);
  CHECK_OK(clEnqueueWriteBufferRect(env.queue, hwo, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                    NULL));
  CHECK_OK(clEnqueueReadBufferRect(env.queue, hro, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                   NULL));
  /* copies ignore them */
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, hna, hwo, o, o, r, 0, 0, 0, 0, 0, NULL, NULL));

  /* copy rect */
  CHECK_ERR(clEnqueueCopyBufferRect(NULL, m, d, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, NULL, d, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, NULL, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, NULL, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, NULL, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, NULL, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  for (int i = 0; i < 3; i++)
    CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r0[i], 0, 0, 0, 0, 0, NULL, NULL),
              CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r, 9, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r, 0, 0, 9, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r, 0, 99, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r, 0, 0, 0, 105, 0, NULL, NULL),
            CL_INVALID_VALUE);
  const size_t o1[3] = {1, 0, 0};
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o1, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o1, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, d, o, o, r, 0, 0, 0, 0, 1, NULL, NULL),
            CL_INVALID_EVENT_WAIT_LIST);
  /* the same buffer needs the same pitches */
  cl_mem big = clCreateBuffer(env.context, 0, 4096, NULL, &err);
  const size_t rs[3] = {4, 2, 2}, far[3] = {0, 0, 8};
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, big, big, o, far, rs, 8, 16, 8, 32, 0, NULL,
                                    NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, big, big, o, far, rs, 8, 32, 16, 32, 0, NULL,
                                    NULL),
            CL_INVALID_VALUE);
  CHECK_OK(clEnqueueCopyBufferRect(env.queue, big, big, o, far, rs, 8, 32, 8, 32, 0, NULL, NULL));

  /* contexts */
  cl_context other = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  cl_mem om = clCreateBuffer(other, 0, 1000, NULL, &err);
  CHECK_ERR(clEnqueueReadBufferRect(env.queue, om, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                    NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueWriteBufferRect(env.queue, om, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL,
                                     NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, om, d, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBufferRect(env.queue, m, om, o, o, r, 0, 0, 0, 0, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  clReleaseMemObject(om);
  clReleaseContext(other);

  /* blocking with a failed wait list */
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  cl_event gate = clCreateUserEvent(env.context, &err);
  CHECK_OK(clSetUserEventStatus(gate, -1));
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 1, &gate, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 1, &gate, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);

  CHECK_OK(clFinish(env.queue));
  clReleaseMemObject(big);
  clReleaseMemObject(hwo);
  clReleaseMemObject(hro);
  clReleaseMemObject(hna);
  clReleaseMemObject(m);
  clReleaseMemObject(d);
}

int main(void) {
  test_env_init(&env);
  for (int i = 0; i < 40; i++)
    round_trip(false);
  for (int i = 0; i < 40; i++)
    round_trip(true);
  test_default_pitches();
  test_overlap();
  test_errors();
  test_env_release(&env);
  return test_finish("test_buffer_rect");
}
