/* LoomCL demo: real kernels on the LoomCL CPU device, each result checked
 * against a host reference and timed. Linked directly against libloomcl. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *kernels =
    "kernel void saxpy(global float *y, global const float *x, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n"
    "#define TS 16\n"
    "kernel void sgemm_tiled(int n, global const float *A, global const float *B,\n"
    "                        global float *C) {\n"
    "  local float As[TS][TS], Bs[TS][TS];\n"
    "  int lr = get_local_id(1), lc = get_local_id(0);\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n / TS; t++) {\n"
    "    As[lr][lc] = A[row * n + t * TS + lc];\n"
    "    Bs[lr][lc] = B[(t * TS + lr) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TS; k++)\n"
    "      acc += As[lr][k] * Bs[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n"
    "kernel void reduce_sum(global const float *in, global float *partial, local float *s) {\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = in[get_global_id(0)];\n"
    "  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < step) s[l] += s[l + step];\n"
    "  }\n"
    "  if (l == 0) partial[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void mandelbrot(global int *out, int w, int h, int max_iter) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;\n"
    "  float zr = 0.0f, zi = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < max_iter && zr * zr + zi * zi <= 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    i++;\n"
    "  }\n"
    "  out[y * w + x] = i;\n"
    "}\n"
    "kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 p = pos[i], a = (float4)(0.0f);\n"
    "  for (int j = 0; j < n; j++) {\n"
    "    float4 d = pos[j] - p;\n"
    "    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;\n"
    "    float inv = rsqrt(r2);\n"
    "    a += d * (pos[j].w * inv * inv * inv);\n"
    "  }\n"
    "  acc[i] = a;\n"
    "}\n"
    "kernel void blur3x3(global const float *in, global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float s = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; dy++)\n"
    "    for (int dx = -1; dx <= 1; dx++) {\n"
    "      int xx = clamp(x + dx, 0, w - 1), yy = clamp(y + dy, 0, h - 1);\n"
    "      s += in[yy * w + xx];\n"
    "    }\n"
    "  out[y * w + x] = s / 9.0f;\n"
    "}\n"
    "kernel void resize(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float2 at = (float2)((x + 0.5f) / get_image_width(dst), (y + 0.5f) / get_image_height(dst));\n"
    "  write_imagef(dst, (int2)(x, y), read_imagef(src, s, at));\n"
    "}\n";

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int failures;

#define CHECK_CL(x)                                                            \
  do {                                                                         \
    cl_int e_ = (x);                                                           \
    if (e_ != CL_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, e_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;

static cl_mem buffer(size_t bytes, void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, init ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes, init, &err);
  CHECK_CL(err);
  return m;
}

/* runs k `reps` times, returns the best time in seconds */
static double run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    CHECK_CL(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL));
    CHECK_CL(clFinish(queue));
    double t = now() - t0;
    if (t < best)
      best = t;
  }
  return best;
}

static void report(const char *name, bool ok, double secs, double amount, const char *unit) {
  printf("  %-12s %-4s %9.3f ms  %9.2f %s\n", name, ok ? "ok" : "FAIL", secs * 1e3, amount / secs / 1e9, unit);
  if (!ok)
    failures++;
}

static void demo_saxpy(void) {
  const size_t n = 1 << 24;
  float *x = malloc(n * 4), *y = malloc(n * 4), *r = malloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    x[i] = (float)(i % 1000);
    y[i] = 1.0f;
  }
  cl_mem bx = buffer(n * 4, x), by = buffer(n * 4, y);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "saxpy", &err);
  CHECK_CL(err);
  float a = 2.0f;
  clSetKernelArg(k, 0, sizeof by, &by);
  clSetKernelArg(k, 1, sizeof bx, &bx);
  clSetKernelArg(k, 2, sizeof a, &a);
  double t = run(k, 1, &n, NULL, 5);
  CHECK_CL(clEnqueueReadBuffer(queue, by, CL_TRUE, 0, n * 4, r, 0, NULL, NULL));
  bool ok = true; /* y was updated 5 times: y = 1 + 5 * 2 * x */
  for (size_t i = 0; i < n && ok; i++)
    ok = r[i] == 1.0f + 10.0f * x[i];
  report("saxpy", ok, t, 12.0 * n, "GB/s");
  clReleaseKernel(k);
  clReleaseMemObject(bx);
  clReleaseMemObject(by);
  free(x); free(y); free(r);
}

static void demo_sgemm(void) {
  const int n = 512;
  size_t bytes = (size_t)n * n * 4;
  float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
  for (int i = 0; i < n * n; i++) {
    A[i] = (float)((i * 7) % 13) - 6.0f;
    B[i] = (float)((i * 5) % 11) - 5.0f;
  }
  cl_mem ba = buffer(bytes, A), bb = buffer(bytes, B), bc = buffer(bytes, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "sgemm_tiled", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof n, &n);
  clSetKernelArg(k, 1, sizeof ba, &ba);
  clSetKernelArg(k, 2, sizeof bb, &bb);
  clSetKernelArg(k, 3, sizeof bc, &bc);
  size_t global[2] = {n, n}, local[2] = {16, 16};
  double t = run(k, 2, global, local, 3);
  CHECK_CL(clEnqueueReadBuffer(queue, bc, CL_TRUE, 0, bytes, C, 0, NULL, NULL));
  bool ok = true; /* small integers: the float sums are exact */
  for (int i = 0; i < n && ok; i += 37)
    for (int j = 0; j < n && ok; j += 29) {
      float s = 0;
      for (int q = 0; q < n; q++)
        s += A[i * n + q] * B[q * n + j];
      ok = C[i * n + j] == s;
    }
  report("sgemm tiled", ok, t, 2.0 * n * n * n, "GFLOP/s");
  clReleaseKernel(k);
  clReleaseMemObject(ba); clReleaseMemObject(bb); clReleaseMemObject(bc);
  free(A); free(B); free(C);
}

static void demo_reduce(void) {
  const size_t n = 1 << 22, lsz = 256;
  float *in = malloc(n * 4), *part = malloc(n / lsz * 4);
  for (size_t i = 0; i < n; i++)
    in[i] = (float)(i % 17);
  cl_mem bi = buffer(n * 4, in), bp = buffer(n / lsz * 4, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "reduce_sum", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof bi, &bi);
  clSetKernelArg(k, 1, sizeof bp, &bp);
  clSetKernelArg(k, 2, lsz * 4, NULL);
  double t = run(k, 1, &n, &lsz, 5);
  CHECK_CL(clEnqueueReadBuffer(queue, bp, CL_TRUE, 0, n / lsz * 4, part, 0, NULL, NULL));
  double sum = 0, ref = 0;
  for (size_t i = 0; i < n / lsz; i++)
    sum += part[i];
  for (size_t i = 0; i < n; i++)
    ref += in[i];
  report("reduction", sum == ref, t, 4.0 * n, "GB/s");
  clReleaseKernel(k);
  clReleaseMemObject(bi); clReleaseMemObject(bp);
  free(in); free(part);
}

static void demo_mandelbrot(void) {
  const int w = 1024, h = 768, iters = 256;
  int *img = malloc((size_t)w * h * 4);
  cl_mem bo = buffer((size_t)w * h * 4, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "mandelbrot", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  clSetKernelArg(k, 1, sizeof w, &w);
  clSetKernelArg(k, 2, sizeof h, &h);
  clSetKernelArg(k, 3, sizeof iters, &iters);
  size_t global[2] = {w, h};
  double t = run(k, 2, global, NULL, 3);
  CHECK_CL(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, (size_t)w * h * 4, img, 0, NULL, NULL));
  long total = 0, mismatches = 0;
  for (int y = 0; y < h; y += 7)
    for (int x = 0; x < w; x += 5) {
      float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0, zi = 0;
      int i = 0;
      while (i < iters && zr * zr + zi * zi <= 4.0f) {
        float tt = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = tt;
        i++;
      }
      /* contraction to FMA may flip a few boundary points */
      mismatches += img[y * w + x] != i;
      total++;
    }
  report("mandelbrot", mismatches * 100 < total, t, (double)w * h, "Gpixel/s");
  clReleaseKernel(k);
  clReleaseMemObject(bo);
  free(img);
}

static void demo_nbody(void) {
  const int n = 4096;
  const float eps = 0.01f;
  float *pos = malloc((size_t)n * 16), *acc = malloc((size_t)n * 16);
  for (int i = 0; i < n; i++) {
    pos[4 * i + 0] = (float)((i * 37) % 101) / 10.0f;
    pos[4 * i + 1] = (float)((i * 53) % 97) / 10.0f;
    pos[4 * i + 2] = (float)((i * 71) % 89) / 10.0f;
    pos[4 * i + 3] = 1.0f + (float)(i % 3);
  }
  cl_mem bp = buffer((size_t)n * 16, pos), ba = buffer((size_t)n * 16, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "nbody", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof bp, &bp);
  clSetKernelArg(k, 1, sizeof ba, &ba);
  clSetKernelArg(k, 2, sizeof n, &n);
  clSetKernelArg(k, 3, sizeof eps, &eps);
  size_t global = n;
  double t = run(k, 1, &global, NULL, 3);
  CHECK_CL(clEnqueueReadBuffer(queue, ba, CL_TRUE, 0, (size_t)n * 16, acc, 0, NULL, NULL));
  bool ok = true;
  for (int i = 0; i < n && ok; i += 97) {
    double a[3] = {0, 0, 0};
    for (int j = 0; j < n; j++) {
      double d[3] = {pos[4 * j] - pos[4 * i], pos[4 * j + 1] - pos[4 * i + 1],
                     pos[4 * j + 2] - pos[4 * i + 2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps;
      double inv = 1.0 / sqrt(r2);
      for (int c = 0; c < 3; c++)
        a[c] += d[c] * pos[4 * j + 3] * inv * inv * inv;
    }
    for (int c = 0; c < 3; c++)
      ok = ok && fabs(acc[4 * i + c] - a[c]) <= 1e-3 * (fabs(a[c]) + 1.0);
  }
  report("n-body", ok, t, 20.0 * n * n, "GFLOP/s");
  clReleaseKernel(k);
  clReleaseMemObject(bp); clReleaseMemObject(ba);
  free(pos); free(acc);
}

static void demo_blur(void) {
  const int w = 2048, h = 2048;
  size_t bytes = (size_t)w * h * 4;
  float *in = malloc(bytes), *out = malloc(bytes);
  for (int i = 0; i < w * h; i++)
    in[i] = (float)((i * 31) % 255);
  cl_mem bi = buffer(bytes, in), bo = buffer(bytes, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(program, "blur3x3", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof bi, &bi);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  clSetKernelArg(k, 2, sizeof w, &w);
  clSetKernelArg(k, 3, sizeof h, &h);
  size_t global[2] = {w, h};
  double t = run(k, 2, global, NULL, 3);
  CHECK_CL(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
  bool ok = true;
  for (int y = 0; y < h && ok; y += 13)
    for (int x = 0; x < w && ok; x += 11) {
      float s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
          int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
          s += in[yy * w + xx];
        }
      ok = fabsf(out[y * w + x] - s / 9.0f) <= 1e-3f;
    }
  report("blur 3x3", ok, t, 2.0 * bytes, "GB/s");
  clReleaseKernel(k);
  clReleaseMemObject(bi); clReleaseMemObject(bo);
  free(in); free(out);
}

/* an RGBA8 image scaled 1.5x through a bilinear sampler */
static void demo_resize(void) {
  const int w = 1024, h = 1024, W = 1536, H = 1536;
  unsigned char *in = malloc((size_t)w * h * 4), *out = malloc((size_t)W * H * 4);
  for (int i = 0; i < w * h * 4; i++)
    in[i] = (unsigned char)((i * 7 + i / 4096) & 255);
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
  cl_int err;
  cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, in, &err);
  CHECK_CL(err);
  d.image_width = W;
  d.image_height = H;
  cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
  CHECK_CL(err);
  const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE,
                                         CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
                                         CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  cl_sampler smp = clCreateSamplerWithProperties(ctx, props, &err);
  CHECK_CL(err);
  cl_kernel k = clCreateKernel(program, "resize", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof src, &src);
  clSetKernelArg(k, 1, sizeof dst, &dst);
  clSetKernelArg(k, 2, sizeof smp, &smp);
  size_t global[2] = {W, H};
  double t = run(k, 2, global, NULL, 10);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
  /* the spec's bilinear filter on the host, within 2 of 255 (the weights'
   * precision is the implementation's) */
  bool ok = true;
  for (int y = 0; y < H && ok; y += 7)
    for (int x = 0; x < W && ok; x += 5) {
      float u = (x + 0.5f) / W * w - 0.5f, v = (y + 0.5f) / H * h - 0.5f;
      int i0 = (int)floorf(u), j0 = (int)floorf(v);
      float a = u - floorf(u), b = v - floorf(v);
      for (int c = 0; c < 4; c++) {
        float sum = 0;
        for (int t2 = 0; t2 < 4; t2++) {
          int i = i0 + (t2 & 1), j = j0 + (t2 >> 1);
          i = i < 0 ? 0 : i >= w ? w - 1 : i;
          j = j < 0 ? 0 : j >= h ? h - 1 : j;
          float wgt = ((t2 & 1) ? a : 1 - a) * ((t2 >> 1) ? b : 1 - b);
          sum += wgt * in[((size_t)j * w + i) * 4 + c] / 255.0f;
        }
        ok = fabsf(out[((size_t)y * W + x) * 4 + c] / 255.0f - sum) <= 2.01f / 255.0f;
      }
    }
  report("resize image", ok, t, (double)W * H, "Gpixel/s");
  clReleaseKernel(k);
  clReleaseSampler(smp);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  free(in);
  free(out);
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  CHECK_CL(clGetPlatformIDs(1, &platform, NULL));
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  char pname[256], dname[256];
  cl_uint cus;
  clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof pname, pname, NULL);
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  printf("%s\ndevice: %s (%u compute units)\n", pname, dname, cus);
  cl_int err;
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  CHECK_CL(err);
  program = clCreateProgramWithSource(ctx, 1, &kernels, NULL, &err);
  CHECK_CL(err);
  double t0 = now();
  err = clBuildProgram(program, 1, &device, "-cl-std=CL1.2", NULL, NULL);
  double tb = now() - t0;
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed (%d):\n%s\n", err, log);
    return 1;
  }
  printf("program built in %.1f ms (cached builds are near-instant)\n\n", tb * 1e3);
  printf("  %-12s %-4s %12s  %s\n", "kernel", "", "best time", "throughput");
  demo_saxpy();
  demo_sgemm();
  demo_reduce();
  demo_mandelbrot();
  demo_nbody();
  demo_blur();
  demo_resize();
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  printf("\n%s\n", failures ? "SOME RESULTS WERE WRONG" : "all results match the host reference");
  return failures ? 1 : 0;
}
