/* shapes.c: the inputs and NDRange shapes of a seed. make_inputs() fills
 * the input buffer, the atomic counters' start values and the scalar and
 * struct arguments; make_shapes() picks NSHAPES launches (1 to 3 dimensions,
 * local and global sizes, offsets), the second with the first's local size
 * and the last a repeat of the first. Both draw from their own stream of the
 * seed, so a kernel read with --file gets the same inputs and shapes. */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>

size_t shape_items(const shape *s) { return s->gsz[0] * s->gsz[1] * s->gsz[2]; }
size_t shape_local(const shape *s) { return s->lsz[0] * s->lsz[1] * s->lsz[2]; }

static void make_local(rng *r, shape *s)
{
    static const size_t l1[] = {1, 2, 3, 7, 8, 13, 16, 32, 60, 64, 100, 128, 256};
    static const size_t l2[][2] = {{1, 1}, {2, 3}, {4, 4}, {8, 8}, {5, 7}, {16, 4}, {1, 9}, {3, 1}, {16, 16}};
    static const size_t l3[][3] = {{1, 1, 1}, {2, 2, 2}, {2, 3, 4}, {4, 4, 4}, {3, 1, 5}, {1, 8, 2}, {4, 2, 8}};
    for (int i = 0; i < 3; i++)
        s->lsz[i] = 1;
    if (s->dim == 1)
        s->lsz[0] = l1[rn(r, 13)];
    else if (s->dim == 2) {
        unsigned k = rn(r, 9);
        s->lsz[0] = l2[k][0];
        s->lsz[1] = l2[k][1];
    } else {
        unsigned k = rn(r, 7);
        for (int i = 0; i < 3; i++)
            s->lsz[i] = l3[k][i];
    }
}

static void make_global(rng *r, shape *s)
{
    for (int i = 0; i < 3; i++) {
        size_t groups = 1 + rn(r, s->dim == 1 ? 4 : 2);
        s->gsz[i] = i < (int)s->dim ? s->lsz[i] * groups : 1;
        s->off[i] = i < (int)s->dim && chance(r, 20) ? rn(r, 5) : 0;
    }
}

void make_shapes(uint64_t seed, shape *sh)
{
    rng r;
    rseed(&r, seed ^ 0x7368617065ull);
    for (int i = 0; i < 3; i++) {
        shape *s = &sh[i];
        memset(s, 0, sizeof *s);
        s->dim = 1 + rn(&r, 3);
        if (i == 1) {
            /* the same local size as shape 0, another global size */
            s->dim = sh[0].dim;
            memcpy(s->lsz, sh[0].lsz, sizeof s->lsz);
        } else {
            make_local(&r, s);
        }
        make_global(&r, s);
    }
    sh[3] = sh[0];
}

void shape_str(const shape *s, char *b, size_t n)
{
    snprintf(b, n, "%ud g=%zux%zux%zu l=%zux%zux%zu off=%zu,%zu,%zu", s->dim, s->gsz[0], s->gsz[1],
             s->gsz[2], s->lsz[0], s->lsz[1], s->lsz[2], s->off[0], s->off[1], s->off[2]);
}

void make_inputs(uint64_t seed, inputs *in)
{
    rng r;
    rseed(&r, seed ^ 0x696e707574ull);
    for (int i = 0; i < NIN; i++) {
        uint64_t x = rnext(&r);
        switch (rn(&r, 4)) {
        case 0: in->in[i] = (cl_uint)rn(&r, 64); break;
        case 1: in->in[i] = (cl_uint)(x >> 32) | 0x80000000u; break;
        default: in->in[i] = (cl_uint)(x >> 32); break;
        }
    }
    for (int i = 0; i < NACC; i++)
        in->acc[i] = (cl_int)(rnext(&r) >> 40);
    memset(&in->ks, 0, sizeof in->ks);
    in->ks.e = rnext(&r);
    in->ks.a = (cl_uint)rnext(&r);
    in->ks.b = (cl_int)(rnext(&r) >> 33) - (1 << 29);
    in->ks.c = (cl_ushort)rnext(&r);
    in->ks.d = (cl_uchar)rnext(&r);
    in->ks.f = (cl_char)(rn(&r, 256) - 128);
    in->ks.g = rn(&r, 10);
    in->u0 = (cl_uint)rn(&r, 1000);
    in->u1 = (cl_int)(rnext(&r) >> 33);
}
