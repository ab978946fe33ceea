//===- Prefetch.h - hide memory latency in walks over ops --------*- C++ -*-===//
//
// Past the caches (about 50k ops), the passes wait on memory for every op
// they read for the first time. Sweeps over arrays of ops ask for the op a
// few entries ahead; walks along a block's op list, which cannot look ahead,
// ask for the addresses that follow the current op.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_PREFETCH_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_PREFETCH_H

#include "mlir/IR/Operation.h"

#include <cstddef>
#include <cstdint>

namespace mlir::mesh {

inline void prefetchAddress(const void *address) {
#if defined(__GNUC__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

/// Asks for the memory of `op` that the passes read: its results (stored
/// before it), its fields and its first operands.
inline void prefetchOp(const Operation *op) {
  // Integers, not pointers: the lines around `op` may lie outside it.
  auto base = reinterpret_cast<std::uintptr_t>(op);
  for (std::uintptr_t line : {base - 64, base, base + 64, base + 128})
    prefetchAddress(reinterpret_cast<const void *>(line));
}

/// How many ops ahead a sweep over an array of ops prefetches.
constexpr size_t kPrefetchDistance = 8;

/// Prefetches the memory that follows the ops of a walk along an op list.
/// The parser allocates a block's ops mostly one after the other, so the
/// next ops usually lie within the next few hundred bytes. An op allocated
/// elsewhere restarts the stream there.
class StreamPrefetcher {
public:
  void at(const void *address) {
    // Integers, not pointers: the addresses ahead may lie outside any object.
    auto here = reinterpret_cast<std::uintptr_t>(address);
    std::uintptr_t target = here + kAhead;
    if (next < here || next > target)
      next = here;
    for (; next < target; next += 64)
      prefetchAddress(reinterpret_cast<const void *>(next));
  }

private:
  /// About ten ops ahead: enough to cover the latency of memory.
  static constexpr std::uintptr_t kAhead = 2048;
  std::uintptr_t next = 0;
};

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_PREFETCH_H
