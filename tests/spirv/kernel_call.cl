kernel void callee(global int *o, int v) { o[get_global_id(0)] = v; }
kernel void caller(global int *o) { callee(o, 42); o[get_global_id(0)] += 1; }
