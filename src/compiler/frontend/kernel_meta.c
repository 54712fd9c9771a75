/* Kernel metadata: names, argument kinds/sizes/offsets and the OpenCL
 * argument information the front end records as function metadata. */
#include "frontend/frontend.h"
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool loom_is_kernel(LLVMValueRef f) {
  if (LLVMIsDeclaration(f))
    return false;
  if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv)
    return true;
  /* after calling conventions were normalised, the metadata still marks kernels */
  size_t n;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(f, &n);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned kind = LLVMGetMDKindIDInContext(c, "kernel_arg_addr_space", 21);
  bool found = false;
  for (size_t i = 0; i < n; i++)
    if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) == kind)
      found = true;
  if (md)
    LLVMDisposeValueMetadataEntries(md);
  return found;
}

/* operands of the function metadata node `kind`, as values; NULL if absent */
LLVMValueRef *loom_md_operands(LLVMValueRef f, const char *kind_name, unsigned *count) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned kind = LLVMGetMDKindIDInContext(c, kind_name, (unsigned)strlen(kind_name));
  size_t n;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(f, &n);
  LLVMValueRef *ops = NULL;
  *count = 0;
  for (size_t i = 0; i < n; i++)
    if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) == kind) {
      LLVMValueRef node = LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
      *count = LLVMGetMDNodeNumOperands(node);
      ops = calloc(*count + 1, sizeof *ops);
      LLVMGetMDNodeOperands(node, ops);
    }
  if (md)
    LLVMDisposeValueMetadataEntries(md);
  return ops;
}

static char *md_string(LLVMValueRef v) {
  unsigned len = 0;
  const char *s = v ? LLVMGetMDString(v, &len) : NULL;
  return s ? strndup(s, len) : strdup("");
}

static uint64_t md_int(LLVMValueRef v) {
  if (v && LLVMIsAConstantInt(v))
    return LLVMConstIntGetZExtValue(v);
  return 0;
}

/* An image type's kernel_arg_type (a struct called image_data is not one). */
static bool is_image_type_name(const char *name) {
  static const char *const images[] = {"image1d_t",       "image1d_buffer_t", "image1d_array_t",
                                       "image2d_t",       "image2d_array_t",  "image3d_t",
                                       "image2d_depth_t", "image2d_array_depth_t"};
  for (size_t i = 0; i < sizeof images / sizeof *images; i++)
    if (!strcmp(name, images[i]))
      return true;
  return false;
}

static const char *vec_type_name(LLVMTypeRef t, bool is_signed) {
  static __thread char buf[32];
  unsigned n = 1;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    n = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  const char *base = "int";
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: base = "half"; break;
  case LLVMFloatTypeKind: base = "float"; break;
  case LLVMDoubleTypeKind: base = "double"; break;
  case LLVMIntegerTypeKind:
    switch (LLVMGetIntTypeWidth(t)) {
    case 8: base = is_signed ? "char" : "uchar"; break;
    case 16: base = is_signed ? "short" : "ushort"; break;
    case 64: base = is_signed ? "long" : "ulong"; break;
    default: base = is_signed ? "int" : "uint"; break;
    }
    break;
  default: break;
  }
  if (n == 1)
    snprintf(buf, sizeof buf, "%s", base);
  else
    snprintf(buf, sizeof buf, "%s%u", base, n);
  return buf;
}

static uint32_t addr_qualifier(uint64_t as) {
  switch (as) {
  case 1: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case 2: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case 3: return CL_KERNEL_ARG_ADDRESS_LOCAL;
  default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
}

static uint32_t access_qualifier(const char *s) {
  if (!strcmp(s, "read_only")) return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  if (!strcmp(s, "write_only")) return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (!strcmp(s, "read_write")) return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_NONE;
}

static uint64_t type_qualifier(const char *s, uint32_t addr) {
  uint64_t q = 0;
  if (strstr(s, "const") || addr == CL_KERNEL_ARG_ADDRESS_CONSTANT)
    q |= CL_KERNEL_ARG_TYPE_CONST;
  if (strstr(s, "restrict")) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (strstr(s, "volatile")) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (strstr(s, "pipe")) q |= CL_KERNEL_ARG_TYPE_PIPE;
  return q;
}

static bool starts_with(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static void kernel_meta(LLVMValueRef f, LLVMTargetDataRef td, bool arg_names,
                        struct loom_kernel_meta *km) {
  size_t len;
  const char *name = LLVMGetValueName2(f, &len);
  km->name = strndup(name, len);
  km->num_args = LLVMCountParams(f);
  km->args = calloc(km->num_args + 1, sizeof *km->args);
  unsigned n_as, n_acc, n_ty, n_q, n_name;
  LLVMValueRef *as = loom_md_operands(f, "kernel_arg_addr_space", &n_as);
  LLVMValueRef *acc = loom_md_operands(f, "kernel_arg_access_qual", &n_acc);
  LLVMValueRef *ty = loom_md_operands(f, "kernel_arg_type", &n_ty);
  LLVMValueRef *q = loom_md_operands(f, "kernel_arg_type_qual", &n_q);
  LLVMValueRef *names = loom_md_operands(f, "kernel_arg_name", &n_name);
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(f));
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  unsigned byref = LLVMGetEnumAttributeKindForName("byref", 5);
  uint32_t off = 0;
  for (unsigned i = 0; i < km->num_args; i++) {
    struct loom_arg_meta *a = &km->args[i];
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(f, i));
    a->address_qualifier = addr_qualifier(i < n_as ? md_int(as[i]) : 0);
    a->type_name = md_string(i < n_ty ? ty[i] : NULL);
    char *acc_s = md_string(i < n_acc ? acc[i] : NULL);
    char *q_s = md_string(i < n_q ? q[i] : NULL);
    a->access_qualifier = access_qualifier(acc_s);
    a->type_qualifier = type_qualifier(q_s, a->address_qualifier);
    free(acc_s);
    free(q_s);
    a->name = (arg_names && i < n_name) ? md_string(names[i]) : NULL;
    uint64_t size = 8, align = 8;
    /* a struct by value: byval(T), or byref(T) once workgroup/byval_copies.c ran */
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(f, i + 1, byval);
    if (!bv)
      bv = LLVMGetEnumAttributeAtIndex(f, i + 1, byref);
    if (starts_with(a->type_name, "sampler_t")) {
      a->kind = LOOM_ARG_SAMPLER;
    } else if (is_image_type_name(a->type_name)) {
      a->kind = LOOM_ARG_IMAGE;
    } else if (bv) {
      LLVMTypeRef st = LLVMGetTypeAttributeValue(bv);
      a->kind = LOOM_ARG_VALUE;
      size = LLVMABISizeOfType(td, st);
      align = LLVMABIAlignmentOfType(td, st);
    } else if (LLVMGetTypeKind(pt) == LLVMPointerTypeKind) {
      unsigned space = LLVMGetPointerAddressSpace(pt);
      a->kind = space == 3 ? LOOM_ARG_LOCAL : LOOM_ARG_BUFFER;
    } else {
      a->kind = LOOM_ARG_VALUE;
      size = LLVMABISizeOfType(td, pt);
      align = LLVMABIAlignmentOfType(td, pt);
    }
    if (align > 128)
      align = 128;
    off = (uint32_t)((off + align - 1) / align * align);
    a->offset = off;
    a->size = (uint32_t)size;
    off += (uint32_t)(size < 8 ? 8 : size);
  }
  km->arg_buffer_size = off;
  free(as); free(acc); free(ty); free(q); free(names);

  char attrs[1024] = "";
  unsigned n;
  LLVMValueRef *rq = loom_md_operands(f, "reqd_work_group_size", &n);
  if (rq && n == 3) {
    for (int d = 0; d < 3; d++)
      km->reqd_work_group_size[d] = md_int(rq[d]);
    snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs),
             "reqd_work_group_size(%llu,%llu,%llu)",
             (unsigned long long)km->reqd_work_group_size[0],
             (unsigned long long)km->reqd_work_group_size[1],
             (unsigned long long)km->reqd_work_group_size[2]);
  }
  free(rq);
  LLVMValueRef *hint = loom_md_operands(f, "work_group_size_hint", &n);
  if (hint && n == 3) {
    for (int d = 0; d < 3; d++)
      km->work_group_size_hint[d] = md_int(hint[d]);
    snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs),
             "%swork_group_size_hint(%llu,%llu,%llu)", attrs[0] ? " " : "",
             (unsigned long long)km->work_group_size_hint[0],
             (unsigned long long)km->work_group_size_hint[1],
             (unsigned long long)km->work_group_size_hint[2]);
  }
  free(hint);
  LLVMValueRef *rsg = loom_md_operands(f, "intel_reqd_sub_group_size", &n);
  if (rsg && n == 1) {
    km->reqd_sub_group_size = (uint32_t)md_int(rsg[0]);
    snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs),
             "%sintel_reqd_sub_group_size(%u)", attrs[0] ? " " : "", km->reqd_sub_group_size);
  }
  free(rsg);
  LLVMValueRef *vth = loom_md_operands(f, "vec_type_hint", &n);
  if (vth && n == 2)
    snprintf(attrs + strlen(attrs), sizeof attrs - strlen(attrs), "%svec_type_hint(%s)",
             attrs[0] ? " " : "", vec_type_name(LLVMTypeOf(vth[0]), md_int(vth[1]) != 0));
  free(vth);
  (void)c;
  km->attributes = strdup(attrs);
}

int loom_kernel_meta_from_module(LLVMModuleRef m, LLVMTargetDataRef td, bool arg_names,
                                 struct loom_program_binary *out) {
  out->num_kernels = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (loom_is_kernel(f))
      out->num_kernels++;
  out->kernels = calloc(out->num_kernels + 1, sizeof *out->kernels);
  unsigned i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (loom_is_kernel(f))
      kernel_meta(f, td, arg_names, &out->kernels[i++]);
  return 0;
}
