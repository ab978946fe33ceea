/* meshsdy's native runtime for programs run by meshsdy.run: what the
 * lowered per-rank code calls besides MPI and MLIR's C runner utilities.
 * Loaded by the ranks before the program (ctypes, RTLD_GLOBAL). */
#ifndef MESHSDY_RUNTIME_RUNTIME_H
#define MESHSDY_RUNTIME_RUNTIME_H

#include <stdint.h>

/* cblas_sgemm / cblas_dgemm with 32-bit sizes (scipy-openblas32). */
typedef void (*MeshsdySgemm)(int order, int transA, int transB, int m, int n, int k, float alpha,
                             const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);
typedef void (*MeshsdyDgemm)(int order, int transA, int transB, int m, int n, int k, double alpha,
                             const double *a, int lda, const double *b, int ldb, double beta, double *c,
                             int ldc);

/* The GEMMs of the loaded BLAS, NULL before meshsdy_runtime_load_blas
 * succeeded (the contractions then use plain loops). */
extern MeshsdySgemm meshsdyGemmF32;
extern MeshsdyDgemm meshsdyGemmF64;

/* Loads the BLAS at `path` (dlopen) and finds `<prefix>cblas_sgemm`,
 * `<prefix>cblas_dgemm` and `<prefix>openblas_set_num_threads` in it; sets
 * the BLAS's threads to `threads`. Returns 0, or -1 if the library or a
 * GEMM is missing (meshsdy_runtime_error says why). */
int meshsdy_runtime_load_blas(const char *path, const char *prefix, int threads);

/* Why the last call of meshsdy_runtime_load_blas failed. */
const char *meshsdy_runtime_error(void);

/* The function a failed `cf.assert` calls (meshsdy.run.asserts), set by the
 * rank before it runs the program. */
typedef void (*MeshsdyAssertHandler)(int64_t number);
void meshsdy_runtime_set_assert_handler(MeshsdyAssertHandler handler);
void _mlir_ciface_meshsdy_assert_failed(int64_t number);

/* MPI_Comm_split (MPICH's handles), called once per parent, color and key
 * in a program: later calls get the communicator of the first from `table`,
 * the program's own (a global it starts as NULL). The per-rank code calls
 * this instead of splitting on each call, which leaked a communicator a
 * call until MPICH had none left (about 2000 calls; the split then failed
 * and the collective reduced nothing). Sound because convert-mesh-to-mpi
 * gives each split of the world colors of its own (assignGroupColors): one
 * parent, color and key is one split, on every rank. */
int meshsdy_comm_split(void **table, int32_t parent, int32_t color, int32_t key, int32_t *newcomm);

#endif
