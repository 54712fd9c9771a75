/* util.c: small utilities every part of loom-fuzz uses: die() for fatal
 * errors, the growing string buffer (sbuf), the arena the generator's
 * expression strings live in (af(), reset per program), and the seeded
 * xorshift64* generator (rng) that makes a seed reproduce a program, its
 * inputs and its NDRange shapes. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("loom-fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void sb_vadd(sbuf *s, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0)
        die("vsnprintf failed");
    if (s->n + (size_t)k + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 4096;
        while (c < s->n + (size_t)k + 1)
            c *= 2;
        s->p = realloc(s->p, c);
        if (!s->p)
            die("out of memory");
        s->cap = c;
    }
    vsnprintf(s->p + s->n, (size_t)k + 1, fmt, ap);
    s->n += (size_t)k;
}

__attribute__((format(printf, 2, 3))) void sb_add(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(s, fmt, ap);
    va_end(ap);
}

/* arena for the generator's expression strings: reset per program */
typedef struct ablock {
    struct ablock *next;
    size_t used, cap;
    char data[];
} ablock;
static ablock *arena;

static void *aalloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!arena || arena->used + n > arena->cap) {
        size_t cap = n > (1u << 20) ? n : (1u << 20);
        ablock *b = malloc(sizeof(ablock) + cap);
        if (!b)
            die("out of memory");
        b->next = arena;
        b->used = 0;
        b->cap = cap;
        arena = b;
    }
    void *p = arena->data + arena->used;
    arena->used += n;
    return p;
}

void arena_reset(void)
{
    while (arena) {
        ablock *n = arena->next;
        free(arena);
        arena = n;
    }
}

__attribute__((format(printf, 1, 2))) char *af(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *p = aalloc((size_t)k + 1);
    vsnprintf(p, (size_t)k + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* xorshift64*: the seed reproduces a program, its inputs and its shapes */
void rseed(rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!r->s)
        r->s = 1;
    for (int i = 0; i < 4; i++) {
        r->s ^= r->s >> 12;
        r->s ^= r->s << 25;
        r->s ^= r->s >> 27;
    }
}

uint64_t rnext(rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

unsigned rn(rng *r, unsigned n) { return n ? (unsigned)((rnext(r) >> 33) % n) : 0; }
int chance(rng *r, unsigned pct) { return rn(r, 100) < pct; }
