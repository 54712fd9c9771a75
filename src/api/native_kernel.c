/* clEnqueueNativeKernel: runs a host function as a command. The argument
 * block is copied at enqueue; just before the call, each listed cl_mem in the
 * copy is replaced by a pointer to that buffer's storage. */
#include "checks.h"
#include "command.h"
#include <stdlib.h>
#include <string.h>

struct native_call {
  void(CL_CALLBACK *fn)(void *);
  cl_uint num_mems;
  cl_mem *mems;      /* retained (NULL entries allowed) */
  size_t *locations; /* byte offsets of the handles within args */
  char *args;        /* copy of the application's block, NULL if none */
};

static cl_int native_run(struct loom_command *cmd) {
  struct native_call *c = cmd->payload;
  for (cl_uint i = 0; i < c->num_mems; i++) {
    void *storage = c->mems[i] ? (void *)c->mems[i]->data : NULL;
    memcpy(c->args + c->locations[i], &storage, sizeof storage);
  }
  c->fn(c->args);
  return CL_COMPLETE;
}

static void native_cleanup(struct loom_command *cmd) {
  struct native_call *c = cmd->payload;
  for (cl_uint i = 0; i < c->num_mems; i++)
    if (c->mems[i])
      LOOM_RELEASE(c->mems[i]);
  free(c);
}

/* Validates mem_list/args_mem_loc against the argument block. */
static cl_int check_mems(cl_context ctx, const char *args, size_t cb_args,
                         cl_uint num, const cl_mem *mem_list,
                         const void **args_mem_loc) {
  const char *fn = "clEnqueueNativeKernel";
  for (cl_uint i = 0; i < num; i++) {
    cl_mem m = mem_list[i];
    /* CL_INVALID_MEM_OBJECT if one or more memory objects specified in
     * mem_list are not valid or are not buffer objects */
    if (m && (!loom_object_is(m, LOOM_MEM) || m->type != CL_MEM_OBJECT_BUFFER))
      return LOOM_FAILF_IN(fn, CL_INVALID_MEM_OBJECT, "mem_list[%u] is not a valid buffer object",
                           i);
    if (m && m->context != ctx)
      return LOOM_FAILF_IN(fn, CL_INVALID_CONTEXT,
                           "mem_list[%u] and command_queue belong to different contexts", i);
    /* each location must hold a whole cl_mem inside the block */
    uintptr_t loc = (uintptr_t)args_mem_loc[i], base = (uintptr_t)args;
    if (!loc || loc < base || cb_args < sizeof(cl_mem) ||
        loc - base > cb_args - sizeof(cl_mem))
      return LOOM_FAILF_IN(fn, CL_INVALID_VALUE,
                           "args_mem_loc[%u] does not point at a whole cl_mem inside args", i);
  }
  return CL_SUCCESS;
}

cl_int clEnqueueNativeKernel(cl_command_queue command_queue,
                             void(CL_CALLBACK *user_func)(void *), void *args,
                             size_t cb_args, cl_uint num_mem_objects,
                             const cl_mem *mem_list, const void **args_mem_loc,
                             cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event) {
  if (!loom_object_is(command_queue, LOOM_QUEUE))
    return LOOM_FAIL(CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  cl_command_queue q = command_queue;
  /* CL_INVALID_VALUE if user_func is NULL; if args is a NULL value and
   * cb_args > 0, or args is not NULL and cb_args is 0; if args is NULL and
   * num_mem_objects > 0; if num_mem_objects > 0 and mem_list or
   * args_mem_loc are NULL, or num_mem_objects = 0 and mem_list or
   * args_mem_loc are not NULL */
  if (!user_func)
    return LOOM_FAIL(CL_INVALID_VALUE, "user_func is NULL");
  if (!args && cb_args > 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "args is NULL and cb_args > 0");
  if (args && cb_args == 0)
    return LOOM_FAIL(CL_INVALID_VALUE, "args is not NULL and cb_args is 0");
  if (num_mem_objects > 0 && !args)
    return LOOM_FAIL(CL_INVALID_VALUE, "args is NULL and num_mem_objects > 0");
  if (num_mem_objects > 0 && (!mem_list || !args_mem_loc))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "num_mem_objects > 0 and mem_list or args_mem_loc is NULL");
  if (num_mem_objects == 0 && (mem_list || args_mem_loc))
    return LOOM_FAIL(CL_INVALID_VALUE,
                     "num_mem_objects is 0 and mem_list or args_mem_loc is not NULL");
  cl_int err = check_mems(q->context, args, cb_args, num_mem_objects, mem_list,
                          args_mem_loc);
  if (err != CL_SUCCESS)
    return err;
  err = loom_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;

  /* one block: the call record, the mem handles, their offsets, the args */
  size_t mems_size = num_mem_objects * sizeof(cl_mem);
  size_t locs_size = num_mem_objects * sizeof(size_t);
  struct native_call *c = malloc(sizeof *c + mems_size + locs_size + cb_args);
  if (!c)
    return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the call failed");
  cl_event ev = loom_command_new(q, CL_COMMAND_NATIVE_KERNEL);
  if (!ev) {
    free(c);
    return LOOM_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the command failed");
  }
  c->fn = user_func;
  c->num_mems = num_mem_objects;
  c->mems = (cl_mem *)(c + 1);
  c->locations = (size_t *)((char *)c->mems + mems_size);
  c->args = cb_args ? (char *)c->locations + locs_size : NULL;
  if (cb_args)
    memcpy(c->args, args, cb_args);
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    c->mems[i] = mem_list[i];
    if (c->mems[i])
      LOOM_RETAIN(c->mems[i]);
    c->locations[i] = (size_t)((const char *)args_mem_loc[i] - (const char *)args);
  }
  ev->cmd.payload = c;
  ev->cmd.run = native_run;
  ev->cmd.cleanup = native_cleanup;
  return loom_command_submit(ev, num_events_in_wait_list, event_wait_list, event,
                             false);
}
