/* Communicators kept over a program's calls (Runtime.h). */

#define _GNU_SOURCE /* RTLD_DEFAULT */

#include "Runtime.h"

#include <dlfcn.h>
#include <stdlib.h>

/* MPI_Comm_split with MPICH's handles (MPI_Comm is an int). */
typedef int (*CommSplit)(int32_t parent, int32_t color, int32_t key, int32_t *newcomm);

typedef struct {
  int32_t parent, color, key, comm;
} Kept;

typedef struct {
  size_t size, capacity;
  Kept kept[];
} Table;

/* MPI_ERR_OTHER in MPICH's mpi.h: the call failed for a reason MPI names
 * no better. */
enum { MPI_ERR_OTHER_MPICH = 15 };

int meshsdy_comm_split(void **table, int32_t parent, int32_t color, int32_t key, int32_t *newcomm) {
  Table *kept = (Table *)*table;
  for (size_t i = 0; kept && i < kept->size; ++i) {
    const Kept *k = &kept->kept[i];
    if (k->parent == parent && k->color == color && k->key == key) {
      *newcomm = k->comm;
      return 0;
    }
  }
  static CommSplit split = NULL;
  if (!split)
    split = (CommSplit)dlsym(RTLD_DEFAULT, "MPI_Comm_split");
  if (!split)
    return MPI_ERR_OTHER_MPICH;
  int status = split(parent, color, key, newcomm);
  if (status != 0)
    return status;
  size_t size = kept ? kept->size : 0;
  if (!kept || size == kept->capacity) {
    size_t capacity = kept ? 2 * kept->capacity : 4;
    Table *grown = (Table *)realloc(kept, sizeof(Table) + capacity * sizeof(Kept));
    /* Without room the communicator is still right, only not kept. */
    if (!grown)
      return 0;
    grown->size = size;
    grown->capacity = capacity;
    kept = grown;
    *table = kept;
  }
  kept->kept[kept->size++] = (Kept){parent, color, key, *newcomm};
  return 0;
}
