/* Contractions of a lowered program as calls into a BLAS (meshsdy.run).
 *
 * meshsdy.run rewrites every contraction of a rank's program whose body is
 * `out + a * b` on f32 or f64 (matmul, batch_matmul, their transposed forms,
 * einsums written as linalg.generic) into
 *
 *   _mlir_ciface_meshsdy_contract_f32(A, B, C, loops, mapA, mapB, mapC)
 *
 * with A, B, C unranked memrefs and, for each operand, which of its
 * dimensions each loop of the op indexes: 4 bits per loop (0 = the operand
 * does not depend on that loop, p + 1 = its dimension p), loop 0 in the low
 * bits, at most 16 loops. The call computes C[c(i)] += A[a(i)] * B[b(i)]
 * over the whole iteration space, exactly what the linalg op does.
 *
 * How: one loop is chosen as the GEMM's m (in A and C, not in B), one as n
 * (in B and C, not in A), one as k (in A and B, not in C), each the
 * innermost of its kind; a role with no loop has size 1. Loops of the same
 * kind that directly enclose it in every operand are merged into it (rows
 * [b, t] of a batch are one m of b * t). Every other loop is an outer loop:
 * one GEMM per outer point, each adding into C (beta = 1). An operand whose
 * slice is neither row- nor column-major (a broadcast, no unit stride), or
 * A or B overlapping C, is copied into a contiguous buffer first. A problem
 * too large for the BLAS's 32-bit sizes, a failed allocation, or a rank
 * without a BLAS loaded, uses a plain loop over the iteration space instead
 * (the same values up to the order of the sums). Nothing here aborts.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "Runtime.h"

enum { MAX_LOOPS = 16, MAX_RANK = 15 };
enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

/* One operand: its first element and, per loop, its stride in elements (0
 * when the operand does not depend on that loop). */
typedef struct {
  char *base;
  int64_t stride[MAX_LOOPS];
} Operand;

/* The iteration space and the three operands. */
typedef struct {
  int loops;
  size_t elem;
  int64_t size[MAX_LOOPS];
  int merged[MAX_LOOPS];
  Operand a, b, c;
  int m, n, k; /* the GEMM's loops, -1 when missing (size 1) */
} Problem;

/* A GEMM slice of one operand: rows x cols with strides (sr, sc). */
typedef struct {
  int64_t rows, cols, sr, sc;
} Slice;

/* Reads an unranked memref's ranked descriptor (allocated, aligned, offset,
 * sizes[rank], strides[rank]) into `out`, the loop sizes into `size`.
 * Returns 0 if the descriptor or map is malformed. */
static int readOperand(const UnrankedMemRef *memref, int64_t map, Problem *p, Operand *out, int *known) {
  if (!memref || !memref->descriptor || memref->rank < 0 || memref->rank > MAX_RANK)
    return 0;
  char **pointers = (char **)memref->descriptor;
  const int64_t *fields = (const int64_t *)(pointers + 2);
  int64_t rank = memref->rank;
  const int64_t *sizes = fields + 1, *strides = fields + 1 + rank;
  out->base = pointers[1] + fields[0] * (int64_t)p->elem;
  for (int l = 0; l < p->loops; ++l) {
    int64_t dim = (map >> (4 * l)) & 15;
    out->stride[l] = 0;
    if (!dim)
      continue;
    if (dim > rank || (known[l] && p->size[l] != sizes[dim - 1]))
      return 0;
    out->stride[l] = strides[dim - 1];
    p->size[l] = sizes[dim - 1];
    known[l] = 1;
  }
  return 1;
}

static int in(const Operand *x, int loop) { return x->stride[loop] != 0; }

/* The innermost loop (smallest stride in `by`) in exactly the operands
 * given, of size above 1; -1 if none. A zero stride in an operand that
 * depends on the loop (a size-1 dimension) counts as not depending. */
static int pickLoop(const Problem *p, int inA, int inB, int inC, const Operand *by) {
  int best = -1;
  for (int l = 0; l < p->loops; ++l) {
    if (p->size[l] <= 1 || in(&p->a, l) != inA || in(&p->b, l) != inB || in(&p->c, l) != inC)
      continue;
    if (best < 0 || llabs(by->stride[l]) < llabs(by->stride[best]))
      best = l;
  }
  return best;
}

/* Merges into `role` every loop that directly encloses it in all three
 * operands (its stride is the role's size times the role's stride). */
static void mergeInto(Problem *p, int role) {
  if (role < 0)
    return;
  const Operand *ops[3] = {&p->a, &p->b, &p->c};
  for (int changed = 1; changed;) {
    changed = 0;
    for (int l = 0; l < p->loops; ++l) {
      if (l == role || l == p->m || l == p->n || l == p->k || p->merged[l] || p->size[l] <= 1)
        continue;
      int ok = 1;
      for (int i = 0; i < 3 && ok; ++i) {
        int64_t inner = ops[i]->stride[role], outer = ops[i]->stride[l];
        ok = (inner == 0) == (outer == 0) && (inner == 0 || outer == inner * p->size[role]);
      }
      if (ok) {
        p->size[role] *= p->size[l];
        p->merged[l] = 1;
        changed = 1;
      }
    }
  }
}

static int64_t strideOf(const Operand *x, int loop) { return loop < 0 ? 0 : x->stride[loop]; }
static int64_t sizeOf(const Problem *p, int loop) { return loop < 0 ? 1 : p->size[loop]; }
static int64_t atLeast1(int64_t v) { return v > 1 ? v : 1; }
static int fitsInt(int64_t v) { return v >= 0 && v <= 0x7fffffff; }

/* How a slice is passed to the BLAS: 1 = row-major (NoTrans, *ld = sr),
 * 2 = column-major (Trans, *ld = sc), 0 = neither (copy it first). */
static int layout(Slice s, int64_t *ld) {
  if (s.cols == 1)
    s.sc = 1;
  if (s.rows == 1)
    s.sr = atLeast1(s.cols);
  if (s.sc == 1 && s.sr >= atLeast1(s.cols)) {
    *ld = s.sr;
    return 1;
  }
  if (s.sr == 1 && s.sc >= atLeast1(s.rows)) {
    *ld = s.sc;
    return 2;
  }
  return 0;
}

/* The bytes from the first to past the last element of `x` over the whole
 * iteration space (strides of a memref here are never negative). */
static int64_t extent(const Problem *p, const Operand *x) {
  int64_t last = 0;
  for (int l = 0; l < p->loops; ++l)
    if (!p->merged[l] && p->size[l] > 0)
      last += (p->size[l] - 1) * llabs(x->stride[l]);
  return (last + 1) * (int64_t)p->elem;
}

static int overlaps(const Problem *p, const Operand *x, const Operand *y) {
  return x->base < y->base + extent(p, y) && y->base < x->base + extent(p, x);
}

/* Copies a slice into a row-major buffer, or (back) out of one. */
static void pack(char *dst, const char *src, Slice s, size_t elem, int out) {
  for (int64_t i = 0; i < s.rows; ++i)
    for (int64_t j = 0; j < s.cols; ++j) {
      char *packed = dst + (i * s.cols + j) * (int64_t)elem;
      const char *strided = src + (i * s.sr + j * s.sc) * (int64_t)elem;
      if (out)
        memcpy((char *)strided, packed, elem); /* `src` is the strided target */
      else
        memcpy(packed, strided, elem);
    }
}

/* The plain loop over the whole iteration space. */
#define DEFINE_NAIVE(T)                                                                                    \
  static void naive_##T(const Problem *p) {                                                                \
    int64_t index[MAX_LOOPS] = {0};                                                                        \
    for (int l = 0; l < p->loops; ++l)                                                                     \
      if (p->size[l] == 0)                                                                                 \
        return;                                                                                            \
    for (;;) {                                                                                             \
      int64_t oa = 0, ob = 0, oc = 0;                                                                      \
      for (int l = 0; l < p->loops; ++l) {                                                                 \
        oa += index[l] * p->a.stride[l];                                                                   \
        ob += index[l] * p->b.stride[l];                                                                   \
        oc += index[l] * p->c.stride[l];                                                                   \
      }                                                                                                    \
      ((T *)p->c.base)[oc] += ((const T *)p->a.base)[oa] * ((const T *)p->b.base)[ob];                      \
      int l = p->loops - 1;                                                                                \
      for (; l >= 0; --l) {                                                                                \
        if (++index[l] < p->size[l])                                                                       \
          break;                                                                                           \
        index[l] = 0;                                                                                      \
      }                                                                                                    \
      if (l < 0)                                                                                           \
        return;                                                                                            \
    }                                                                                                      \
  }
DEFINE_NAIVE(float)
DEFINE_NAIVE(double)

/* One GEMM of the plan: C (row-major, ldc) += op(A) op(B). */
static void callGemm(const Problem *p, int ta, int tb, int64_t M, int64_t N, int64_t K, const char *a,
                     int64_t lda, const char *b, int64_t ldb, char *c, int64_t ldc) {
  if (p->elem == sizeof(float))
    meshsdyGemmF32(ROW_MAJOR, ta, tb, (int)M, (int)N, (int)K, 1.0f, (const float *)a, (int)lda,
                   (const float *)b, (int)ldb, 1.0f, (float *)c, (int)ldc);
  else
    meshsdyGemmF64(ROW_MAJOR, ta, tb, (int)M, (int)N, (int)K, 1.0, (const double *)a, (int)lda,
                   (const double *)b, (int)ldb, 1.0, (double *)c, (int)ldc);
}

/* The GEMMs, one per outer point. Returns 0, having computed nothing, if
 * the BLAS cannot take the problem (the caller then uses the plain loop). */
static int gemms(Problem *p) {
  if (!(p->elem == sizeof(float) ? (void *)meshsdyGemmF32 : (void *)meshsdyGemmF64))
    return 0;
  /* An empty loop (a rank's empty piece of an uneven split) leaves C as it
   * is. Checked first: a loop of size 0 is no GEMM role (pickLoop takes
   * sizes above 1), so it would be an outer loop run once, reading A and B
   * past their ends (k) or writing past C's (m, n). */
  for (int l = 0; l < p->loops; ++l)
    if (p->size[l] == 0)
      return 1;
  int64_t M = sizeOf(p, p->m), N = sizeOf(p, p->n), K = sizeOf(p, p->k);
  Slice sa = {M, K, strideOf(&p->a, p->m), strideOf(&p->a, p->k)};
  Slice sb = {K, N, strideOf(&p->b, p->k), strideOf(&p->b, p->n)};
  Slice sc = {M, N, strideOf(&p->c, p->m), strideOf(&p->c, p->n)};
  int64_t lda = K, ldb = N, ldc = N;
  int la = layout(sa, &lda), lb = layout(sb, &ldb), lc = layout(sc, &ldc);
  int copyA = !la || overlaps(p, &p->a, &p->c), copyB = !lb || overlaps(p, &p->b, &p->c), copyC = lc != 1;
  if (copyA)
    la = 1, lda = atLeast1(K);
  if (copyB)
    lb = 1, ldb = atLeast1(N);
  if (copyC)
    ldc = atLeast1(N);
  if (!fitsInt(M) || !fitsInt(N) || !fitsInt(K) || !fitsInt(lda) || !fitsInt(ldb) || !fitsInt(ldc))
    return 0;
  char *bufA = copyA ? malloc(atLeast1(M * K) * p->elem) : NULL;
  char *bufB = copyB ? malloc(atLeast1(K * N) * p->elem) : NULL;
  char *bufC = copyC ? malloc(atLeast1(M * N) * p->elem) : NULL;
  if ((copyA && !bufA) || (copyB && !bufB) || (copyC && !bufC)) {
    free(bufA), free(bufB), free(bufC);
    return 0;
  }
  int outer[MAX_LOOPS], nOuter = 0;
  int64_t index[MAX_LOOPS] = {0};
  for (int l = 0; l < p->loops; ++l)
    if (l != p->m && l != p->n && l != p->k && !p->merged[l] && p->size[l] != 1)
      outer[nOuter++] = l;
  for (int done = 0; !done;) {
    int64_t oa = 0, ob = 0, oc = 0;
    for (int i = 0; i < nOuter; ++i) {
      oa += index[i] * p->a.stride[outer[i]];
      ob += index[i] * p->b.stride[outer[i]];
      oc += index[i] * p->c.stride[outer[i]];
    }
    const char *a = p->a.base + oa * (int64_t)p->elem, *b = p->b.base + ob * (int64_t)p->elem;
    char *c = p->c.base + oc * (int64_t)p->elem;
    if (copyA)
      pack(bufA, a, sa, p->elem, 0), a = bufA;
    if (copyB)
      pack(bufB, b, sb, p->elem, 0), b = bufB;
    if (copyC)
      pack(bufC, c, sc, p->elem, 0);
    callGemm(p, la == 2 ? TRANS : NO_TRANS, lb == 2 ? TRANS : NO_TRANS, M, N, K, a, lda, b, ldb,
             copyC ? bufC : c, ldc);
    if (copyC)
      pack(bufC, c, sc, p->elem, 1);
    int i = nOuter - 1;
    for (; i >= 0 && ++index[i] >= p->size[outer[i]]; --i)
      index[i] = 0;
    done = i < 0;
  }
  free(bufA), free(bufB), free(bufC);
  return 1;
}

/* Builds the problem of a call; returns 0 if its arguments are malformed. */
static int plan(Problem *p, size_t elem, const UnrankedMemRef *a, const UnrankedMemRef *b,
                const UnrankedMemRef *c, int64_t loops, int64_t mapA, int64_t mapB, int64_t mapC) {
  memset(p, 0, sizeof *p);
  if (loops < 0 || loops > MAX_LOOPS)
    return 0;
  p->loops = (int)loops;
  p->elem = elem;
  int known[MAX_LOOPS] = {0};
  for (int l = 0; l < p->loops; ++l)
    p->size[l] = 1;
  if (!readOperand(a, mapA, p, &p->a, known) || !readOperand(b, mapB, p, &p->b, known) ||
      !readOperand(c, mapC, p, &p->c, known))
    return 0;
  p->m = p->n = p->k = -1;
  return 1;
}

/* Chooses the GEMM's m, n and k in a copy of the problem and merges loops
 * into them (the plain loop needs the problem as it was). */
static Problem gemmPlan(const Problem *p) {
  Problem g = *p;
  g.n = pickLoop(&g, 0, 1, 1, &g.c);
  g.m = pickLoop(&g, 1, 0, 1, &g.c);
  g.k = pickLoop(&g, 1, 1, 0, &g.a);
  mergeInto(&g, g.n);
  mergeInto(&g, g.m);
  mergeInto(&g, g.k);
  return g;
}

void _mlir_ciface_meshsdy_contract_f32(const UnrankedMemRef *a, const UnrankedMemRef *b,
                                       const UnrankedMemRef *c, int64_t loops, int64_t mapA, int64_t mapB,
                                       int64_t mapC) {
  Problem p, g;
  if (!plan(&p, sizeof(float), a, b, c, loops, mapA, mapB, mapC))
    return;
  g = gemmPlan(&p);
  if (!gemms(&g))
    naive_float(&p);
}

void _mlir_ciface_meshsdy_contract_f64(const UnrankedMemRef *a, const UnrankedMemRef *b,
                                       const UnrankedMemRef *c, int64_t loops, int64_t mapA, int64_t mapB,
                                       int64_t mapC) {
  Problem p, g;
  if (!plan(&p, sizeof(double), a, b, c, loops, mapA, mapB, mapC))
    return;
  g = gemmPlan(&p);
  if (!gemms(&g))
    naive_double(&p);
}
