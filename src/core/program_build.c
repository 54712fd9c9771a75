/* Building programs: source -> (cache | front end + linker) -> JIT.
 * The compiler is pure; this file owns build state, logs and the cache. */
#include "program.h"
#include "backend/codegen.h"
#include "support/util.h"
#include "platform.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* With LOOMCL_LOG=api: the step of a build that decided its error (the
 * entry point logs the error itself after this line). */
static cl_int build_error(const char *fn, cl_int err, const char *error, const char *step) {
  loom_log_api(fn, error, step);
  return err;
}
#define BUILD_ERROR(err, step) build_error(__func__, (err), #err, (step))

static void unload_code(struct loom_program_build *b) {
  if (b->code)
    b->device->ops->code_unload(b->code);
  b->code = NULL;
}

static void program_destroy(struct loom_object *o) {
  cl_program p = (cl_program)o;
  for (cl_uint i = 0; i < p->num_devices; i++) {
    struct loom_program_build *b = &p->builds[i];
    loom_variants_free(b);
    unload_code(b);
    free(b->fns);
    free(b->log);
    free(b->options);
    loom_program_binary_free(&b->bin);
  }
  free(p->builds);
  free(p->devices);
  free(p->source);
  free(p->il);
  loom_spirv_info_free(&p->il_info);
  free(p->spec_values);
  pthread_mutex_destroy(&p->lock);
  LOOM_RELEASE(p->context);
  free(p);
}

cl_program loom_program_new(cl_context ctx, cl_uint num_devices, const cl_device_id *devices) {
  cl_program p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  loom_object_init(&p->obj, LOOM_PROGRAM, program_destroy);
  p->context = ctx;
  LOOM_RETAIN(ctx);
  p->num_devices = num_devices;
  p->devices = malloc(num_devices * sizeof *p->devices);
  p->builds = calloc(num_devices, sizeof *p->builds);
  if (!p->devices || !p->builds) {
    free(p->devices);
    free(p->builds);
    LOOM_RELEASE(ctx);
    free(p);
    return NULL;
  }
  memcpy(p->devices, devices, num_devices * sizeof *p->devices);
  for (cl_uint i = 0; i < num_devices; i++) {
    p->builds[i].status = CL_BUILD_NONE;
    p->builds[i].device = devices[i];
  }
  pthread_mutex_init(&p->lock, NULL);
  return p;
}

struct loom_program_build *loom_program_build_for(cl_program p, cl_device_id dev) {
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->devices[i] == dev)
      return &p->builds[i];
  return NULL;
}

void loom_device_target(cl_device_id dev, struct loom_target *t) {
  loom_host_target(t);
  if (dev->desc.llvm_cpu)
    t->cpu = dev->desc.llvm_cpu;
  if (dev->desc.llvm_features)
    t->features = dev->desc.llvm_features;
  t->extensions = LOOM_EXTENSIONS;
}

static void reset_build(struct loom_program_build *b) {
  loom_variants_free(b);
  unload_code(b);
  free(b->fns);
  b->fns = NULL;
  free(b->log);
  b->log = NULL;
  free(b->options);
  b->options = NULL;
  loom_program_binary_free(&b->bin);
  b->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

/* Loads the native code of an executable and finds its kernels; code still
 * being generated is found when a kernel is created (loom_program_kernel_fn). */
static int load_executable(struct loom_program_build *b) {
  if (b->bin.kind != LOOM_BINARY_EXECUTABLE || (!b->bin.object.size && !b->bin.pending))
    return -1;
  loom_variants_free(b);
  unload_code(b); /* a rebuild replaces what was loaded before */
  free(b->fns);
  b->fns = NULL;
  b->code = b->device->ops->code_load(&b->bin, &b->log);
  if (!b->code)
    return -1;
  b->fns = calloc(b->bin.num_kernels + 1, sizeof *b->fns);
  for (uint32_t i = 0; i < b->bin.num_kernels && !b->bin.pending; i++) {
    b->fns[i] = b->device->ops->code_lookup(b->code, b->bin.kernels[i].name);
    if (!b->fns[i]) {
      loom_str_append(&b->log, "error: kernel code not found\n");
      return -1;
    }
  }
  b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return 0;
}

/* The cache holds serialised executables keyed by what produced them. */
static bool cache_lookup(const char *key, struct loom_program_binary *bin) {
  return loom_cache_get_binary(key, bin) == 0 && bin->kind == LOOM_BINARY_EXECUTABLE;
}

static void cache_store(const char *key, const struct loom_program_binary *bin) {
  loom_cache_put_binary(key, bin);
}

loom_wg_fn loom_program_kernel_fn_nowait(cl_program p, struct loom_program_build *b, uint32_t i,
                                         bool *pending) {
  *pending = false;
  pthread_mutex_lock(&p->lock);
  loom_wg_fn fn = b->fns[i];
  bool generating = !fn && b->code && b->bin.pending && loom_codegen_poll(b->bin.pending) > 0;
  pthread_mutex_unlock(&p->lock);
  if (generating) {
    *pending = true;
    return NULL;
  }
  return fn ? fn : loom_program_kernel_fn(p, b, i);
}

loom_wg_fn loom_program_kernel_fn(cl_program p, struct loom_program_build *b, uint32_t i) {
  pthread_mutex_lock(&p->lock);
  if (!b->fns[i] && b->code)
    b->fns[i] = b->device->ops->code_lookup(b->code, b->bin.kernels[i].name);
  loom_wg_fn fn = b->fns[i];
  pthread_mutex_unlock(&p->lock);
  return fn;
}

/* does the source name "include" or "import" anywhere (a directive, or
 * __has_include), lines ended by a backslash joined first? */
static bool mentions_include(const char *source) {
  size_t n = strlen(source), k = 0;
  char *joined = malloc(n + 1);
  if (!joined)
    return true; /* cannot tell: assume it does */
  for (size_t i = 0; i < n; i++) {
    if (source[i] == '\\' && source[i + 1] == '\n') {
      i++;
      continue;
    }
    if (source[i] == '\\' && source[i + 1] == '\r' && source[i + 2] == '\n') {
      i += 2;
      continue;
    }
    joined[k++] = source[i];
  }
  joined[k] = 0;
  bool found = strstr(joined, "include") || strstr(joined, "import");
  free(joined);
  return found;
}

/* The cache key covers the source and options; files the source may read
 * from outside (-I folders, absolute #include paths) are not hashed, so such
 * builds are not cached. A source without any include never reads the -I
 * folders: PyOpenCL passes its own to every build, and its programs were
 * compiled again at every run. */
static bool cacheable(const char *source, const char *options) {
  if (!mentions_include(source))
    return true;
  if (strstr(options, "-I"))
    return false;
  for (const char *s = strstr(source, "#include"); s; s = strstr(s + 8, "#include")) {
    const char *q = s + 8;
    while (*q == ' ' || *q == '\t')
      q++;
    if ((q[0] == '"' || q[0] == '<') && q[1] == '/')
      return false;
  }
  return true;
}

/* Whether p's kernels may run non-uniform work-groups: OpenCL C from
 * -cl-std=CL2.0 on, SPIR-V always, unless -cl-uniform-work-group-size
 * (API 2.2, clEnqueueNDRangeKernel: "If the program was created with
 * clCreateProgramWithSource, non-uniform work-groups are enabled only if
 * ... -cl-std=CL2.0") */
static bool allows_nonuniform(cl_program p, const char *options) {
  if (p->il)
    return !strstr(options, "-cl-uniform-work-group-size");
  return loom_options_nonuniform(options);
}

/* The front end for p's source or SPIR-V module: bitcode of a compiled
 * object, as loom_compile_source returns it. Called under p->lock. */
static int compile_text(cl_program p, const struct loom_header *headers, size_t num_headers,
                        const char *options, const struct loom_target *t, struct loom_blob *bc,
                        char **log) {
  if (p->il)
    return loom_compile_spirv(p->il, p->il_size, p->spec_values, p->num_spec_values, options, t,
                              bc, log);
  return loom_compile_source(p->source, headers, num_headers, options, t, bc, log);
}

static cl_int build_from_source(cl_program p, struct loom_program_build *b, cl_device_id dev,
                                const char *options) {
  struct loom_target t;
  loom_device_target(dev, &t);
  /* the key covers what the front end reads: the source, or the module
   * and the specialization constants' values */
  const void *parts[4] = {"build", p->source, options, NULL};
  size_t sizes[4] = {5, p->source ? strlen(p->source) : 0, strlen(options), 0};
  if (p->il) {
    parts[0] = "build-spirv";
    sizes[0] = 11;
    parts[1] = p->il;
    sizes[1] = p->il_size;
    parts[3] = p->spec_values;
    sizes[3] = p->num_spec_values * sizeof *p->spec_values;
  }
  char key[33];
  bool use_cache = p->il || cacheable(p->source, options);
  loom_cache_key(parts, sizes, 4, &t, key);
  if (use_cache && cache_lookup(key, &b->bin)) {
    b->log = strdup(b->bin.log ? b->bin.log : "");
    if (load_executable(b) != 0)
      return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE,
                         "loading the cached executable's code failed");
    return CL_SUCCESS;
  }
  struct loom_blob bc = {0};
  int rc = compile_text(p, NULL, 0, options, &t, &bc, &b->log);
  if (rc == -2)
    return BUILD_ERROR(CL_INVALID_BUILD_OPTIONS, "the front end refused options");
  if (rc == -3)
    return BUILD_ERROR(CL_OUT_OF_HOST_MEMORY, "too little memory left to compile");
  if (rc != 0)
    return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE, "the source did not compile");
  const struct loom_blob *inputs[1] = {&bc};
  rc = loom_link_program(inputs, 1, options, false, &t, &b->bin, &b->log);
  loom_blob_free(&bc);
  if (rc == -2)
    return BUILD_ERROR(CL_INVALID_BUILD_OPTIONS, "the linker refused options");
  if (rc != 0)
    return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE,
                       "linking or generating the executable failed");
  b->bin.nonuniform = allows_nonuniform(p, options);
  free(b->bin.log);
  b->bin.log = strdup(b->log ? b->log : "");
  if (use_cache)
    cache_store(key, &b->bin);
  if (load_executable(b) != 0)
    return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE, "loading the executable's code failed");
  return CL_SUCCESS;
}

/* A program created from a compiled object or library binary: link it. */
static cl_int build_from_binary(struct loom_program_build *b, cl_device_id dev, const char *options) {
  if (b->bin.kind == LOOM_BINARY_EXECUTABLE) {
    if (load_executable(b) != 0)
      return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE,
                         "loading the code of the executable binary failed");
    return CL_SUCCESS;
  }
  struct loom_target t;
  loom_device_target(dev, &t);
  struct loom_program_binary linked;
  const struct loom_blob *inputs[1] = {&b->bin.bitcode};
  int rc = loom_link_program(inputs, 1, options, false, &t, &linked, &b->log);
  if (rc != 0) {
    loom_program_binary_free(&linked);
    if (rc == -2)
      return BUILD_ERROR(CL_INVALID_BUILD_OPTIONS, "the linker refused options");
    return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE, "linking the binary into an executable failed");
  }
  linked.nonuniform = b->bin.nonuniform && !strstr(options, "-cl-uniform-work-group-size");
  loom_program_binary_free(&b->bin);
  b->bin = linked;
  if (load_executable(b) != 0)
    return BUILD_ERROR(CL_BUILD_PROGRAM_FAILURE, "loading the linked executable's code failed");
  return CL_SUCCESS;
}

cl_int loom_program_build(cl_program p, const char *options) {
  cl_int result = CL_SUCCESS;
  if (!options)
    options = "";
  for (cl_uint i = 0; i < p->num_devices; i++) {
    struct loom_program_build *b = &p->builds[i];
    cl_int rc;
    pthread_mutex_lock(&p->lock);
    b->status = CL_BUILD_IN_PROGRESS;
    if (p->source || p->il) {
      reset_build(b);
      rc = build_from_source(p, b, p->devices[i], options);
    } else {
      free(b->log);
      b->log = NULL;
      rc = build_from_binary(b, p->devices[i], options);
    }
    if (!b->log)
      b->log = strdup("");
    free(b->options);
    b->options = strdup(options);
    b->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    pthread_mutex_unlock(&p->lock);
    if (rc != CL_SUCCESS)
      result = rc;
  }
  return result;
}

cl_int loom_program_compile(cl_program p, const char *options, cl_uint num_headers,
                            const cl_program *headers, const char **header_names) {
  if (!options)
    options = "";
  struct loom_header *hs = calloc(num_headers + 1, sizeof *hs);
  for (cl_uint h = 0; h < num_headers; h++) {
    hs[h].name = header_names[h];
    hs[h].source = headers[h]->source ? headers[h]->source : "";
  }
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < p->num_devices; i++) {
    struct loom_program_build *b = &p->builds[i];
    pthread_mutex_lock(&p->lock);
    reset_build(b);
    b->status = CL_BUILD_IN_PROGRESS;
    struct loom_target t;
    loom_device_target(p->devices[i], &t);
    int rc = compile_text(p, hs, num_headers, options, &t, &b->bin.bitcode, &b->log);
    cl_int err = CL_SUCCESS;
    if (rc == 0) {
      b->bin.kind = LOOM_BINARY_OBJECT;
      b->bin.options = strdup(options);
      b->bin.nonuniform = allows_nonuniform(p, options);
      loom_bitcode_kernel_meta(&b->bin.bitcode, true, &b->bin);
      b->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    } else if (rc == -2) {
      err = BUILD_ERROR(CL_INVALID_COMPILER_OPTIONS, "the front end refused options");
    } else if (rc == -3) {
      err = BUILD_ERROR(CL_OUT_OF_HOST_MEMORY, "too little memory left to compile");
    } else {
      err = BUILD_ERROR(CL_COMPILE_PROGRAM_FAILURE, "the source did not compile");
    }
    b->options = strdup(options);
    b->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    pthread_mutex_unlock(&p->lock);
    if (err != CL_SUCCESS)
      result = err;
  }
  free(hs);
  return result;
}

cl_int loom_program_link(cl_program out, const char *options, cl_uint num_inputs,
                         const cl_program *inputs) {
  if (!options)
    options = "";
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < out->num_devices; i++) {
    struct loom_program_build *b = &out->builds[i];
    const struct loom_blob **blobs = calloc(num_inputs + 1, sizeof *blobs);
    /* non-uniform groups only if every input allows them */
    bool nonuniform = !strstr(options, "-cl-uniform-work-group-size");
    for (cl_uint k = 0; k < num_inputs; k++) {
      struct loom_program_build *ib = loom_program_build_for(inputs[k], out->devices[i]);
      blobs[k] = ib ? &ib->bin.bitcode : NULL;
      nonuniform = nonuniform && ib && ib->bin.nonuniform;
      if (!blobs[k] || !blobs[k]->size)
        result = BUILD_ERROR(CL_INVALID_OPERATION,
                             "an input program has no compiled binary for a device of the "
                             "link");
    }
    if (result != CL_SUCCESS) {
      free(blobs);
      return result;
    }
    pthread_mutex_lock(&out->lock);
    reset_build(b);
    b->status = CL_BUILD_IN_PROGRESS;
    struct loom_target t;
    loom_device_target(out->devices[i], &t);
    int rc = loom_link_program(blobs, num_inputs, options, false, &t, &b->bin, &b->log);
    b->bin.nonuniform = nonuniform;
    cl_int err = CL_SUCCESS;
    if (rc == -2)
      err = BUILD_ERROR(CL_INVALID_LINKER_OPTIONS, "the linker refused options");
    else if (rc != 0)
      err = BUILD_ERROR(CL_LINK_PROGRAM_FAILURE, "linking the input programs failed");
    else if (b->bin.kind == LOOM_BINARY_LIBRARY)
      b->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    else if (load_executable(b) != 0)
      err = BUILD_ERROR(CL_LINK_PROGRAM_FAILURE, "loading the linked executable's code failed");
    if (!b->log)
      b->log = strdup("");
    b->options = strdup(options);
    b->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    pthread_mutex_unlock(&out->lock);
    free(blobs);
    if (err != CL_SUCCESS)
      result = err;
  }
  return result;
}

cl_int loom_program_set_binary(cl_program p, cl_uint i, const unsigned char *data, size_t size) {
  struct loom_program_build *b = &p->builds[i];
  if (loom_binary_deserialize(data, size, &b->bin) != 0)
    return BUILD_ERROR(CL_INVALID_BINARY, "the binary is not a valid LoomCL program binary");
  switch (b->bin.kind) {
  case LOOM_BINARY_OBJECT: b->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT; break;
  case LOOM_BINARY_LIBRARY: b->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY; break;
  default: b->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE; break;
  }
  return CL_SUCCESS;
}
