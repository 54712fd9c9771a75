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
  for (cl_uint i = 0; i < num; i++) {
    cl_mem m = mem_list[i];
    if (m && (!loom_object_is(m, LOOM_MEM) || m->type != CL_MEM_OBJECT_BUFFER))
      return CL_INVALID_MEM_OBJECT;
    if (m && m->context != ctx)
      return CL_INVALID_CONTEXT;
    /* each location must hold a whole cl_mem inside the block */
    uintptr_t loc = (uintptr_t)args_mem_loc[i], base = (uintptr_t)args;
    if (!loc || loc < base || cb_args < sizeof(cl_mem) ||
        loc - base > cb_args - sizeof(cl_mem))
      return CL_INVALID_VALUE;
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
    return CL_INVALID_COMMAND_QUEUE;
  cl_command_queue q = command_queue;
  if (!user_func)
    return CL_INVALID_VALUE;
  if ((args == NULL) != (cb_args == 0) || (num_mem_objects > 0 && !args))
    return CL_INVALID_VALUE;
  if (num_mem_objects > 0 ? (!mem_list || !args_mem_loc)
                          : (mem_list || args_mem_loc))
    return CL_INVALID_VALUE;
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
    return CL_OUT_OF_HOST_MEMORY;
  cl_event ev = loom_command_new(q, CL_COMMAND_NATIVE_KERNEL);
  if (!ev) {
    free(c);
    return CL_OUT_OF_HOST_MEMORY;
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
