/* Loading the BLAS, and the handler of failed assertions (Runtime.h). */

#include "Runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

MeshsdySgemm meshsdyGemmF32 = NULL;
MeshsdyDgemm meshsdyGemmF64 = NULL;

static char error[512];
static MeshsdyAssertHandler assertHandler = NULL;

/* `<prefix><name>` in `lib`, or NULL. */
static void *symbol(void *lib, const char *prefix, const char *name) {
  char full[256];
  if (snprintf(full, sizeof full, "%s%s", prefix, name) >= (int)sizeof full)
    return NULL;
  return dlsym(lib, full);
}

int meshsdy_runtime_load_blas(const char *path, const char *prefix, int threads) {
  if (!path || !prefix) {
    snprintf(error, sizeof error, "no BLAS library given");
    return -1;
  }
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(error, sizeof error, "cannot load %s: %s", path, dlerror());
    return -1;
  }
  MeshsdySgemm sgemm = (MeshsdySgemm)symbol(lib, prefix, "cblas_sgemm");
  MeshsdyDgemm dgemm = (MeshsdyDgemm)symbol(lib, prefix, "cblas_dgemm");
  if (!sgemm || !dgemm) {
    snprintf(error, sizeof error, "%s has no %scblas_sgemm or %scblas_dgemm", path, prefix, prefix);
    return -1;
  }
  void (*setThreads)(int) = (void (*)(int))symbol(lib, prefix, "openblas_set_num_threads");
  if (setThreads && threads > 0)
    setThreads(threads);
  meshsdyGemmF32 = sgemm;
  meshsdyGemmF64 = dgemm;
  /* The first GEMM sets the BLAS's buffers up: here, not in the program. */
  float a = 0.0f, b = 0.0f, c = 0.0f;
  sgemm(101, 111, 111, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);
  return 0;
}

const char *meshsdy_runtime_error(void) { return error; }

void meshsdy_runtime_set_assert_handler(MeshsdyAssertHandler handler) { assertHandler = handler; }

void _mlir_ciface_meshsdy_assert_failed(int64_t number) {
  if (assertHandler)
    assertHandler(number);
  /* No handler (or it returned): the program must not go on. */
  fprintf(stderr, "meshsdy: assertion %lld failed\n", (long long)number);
  fflush(stderr);
  abort();
}
