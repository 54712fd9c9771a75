/* Samplers through the API: clCreateSampler and
 * clCreateSamplerWithProperties with every addressing mode, the defaults,
 * the queries, retain and release, and the error paths. Images are tested
 * in test_image_create.c and test_image_commands.c. */
#include "harness.h"

static struct test_env env;
static char junk[256]; /* a pointer that is no OpenCL object */

static void test_samplers(void) {
  cl_int err = 1;
  cl_sampler s = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  CHECK_OK(err);
  cl_bool norm = 0;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  cl_context c = NULL;
  cl_uint refs = 0;
  size_t sz = 1;
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_TRUE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_REPEAT);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(fm == CL_FILTER_LINEAR);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL));
  CHECK(c == env.context);
  CHECK_OK(clRetainSampler(s));
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_OK(clReleaseSampler(s));
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &sz));
  CHECK(sz == 0);
  CHECK_ERR(clGetSamplerInfo(s, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, 1, &fm, NULL), CL_INVALID_VALUE);
  CHECK_OK(clReleaseSampler(s));

  const cl_sampler_properties good[] = {
      CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
      CL_ADDRESS_MIRRORED_REPEAT, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  s = clCreateSamplerWithProperties(env.context, good, &err);
  CHECK_OK(err);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_FALSE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_MIRRORED_REPEAT);
  cl_sampler_properties props[8] = {0};
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof props, props, &sz));
  CHECK(sz == sizeof good && memcmp(props, good, sizeof good) == 0);
  clReleaseSampler(s);
  /* defaults: normalized, clamp, nearest */
  s = clCreateSamplerWithProperties(env.context, NULL, &err);
  CHECK_OK(err);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(norm == CL_TRUE);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_CLAMP);
  CHECK_OK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(fm == CL_FILTER_NEAREST);
  clReleaseSampler(s);
  const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                      CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  for (int i = 0; i < 5; i++) {
    s = clCreateSampler(env.context, CL_FALSE, modes[i], CL_FILTER_NEAREST, &err);
    CHECK_OK(err);
    clReleaseSampler(s);
  }
  s = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, NULL);
  CHECK(s != NULL);
  clReleaseSampler(s);

  /* errors */
  CHECK(clCreateSampler((cl_context)junk, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  CHECK(clCreateSampler(env.context, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, 0x9999, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSamplerWithProperties((cl_context)junk, good, &err) == NULL);
  CHECK_ERR(err, CL_INVALID_CONTEXT);
  const cl_sampler_properties bad[][5] = {
      {0x7777, 1, 0},
      {CL_SAMPLER_NORMALIZED_COORDS, 3, 0},
      {CL_SAMPLER_ADDRESSING_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, 0x9999, 0},
      {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0},
      {CL_SAMPLER_MIP_FILTER_MODE, CL_FILTER_LINEAR, 0}, /* cl_khr_mipmap_image only */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err = 1;
    CHECK(clCreateSamplerWithProperties(env.context, bad[i], &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
  }
  CHECK_ERR(clRetainSampler((cl_sampler)junk), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
  CHECK_ERR(clReleaseSampler((cl_sampler)env.context), CL_INVALID_SAMPLER);
  CHECK_ERR(clGetSamplerInfo((cl_sampler)junk, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL),
            CL_INVALID_SAMPLER);
}
int main(void) {
  test_env_init(&env);
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  if (!images)
    printf("note: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE (device.c); testing the images anyway\n");

  test_samplers();

  test_env_release(&env);
  return test_finish("test_sampler_api");
}
