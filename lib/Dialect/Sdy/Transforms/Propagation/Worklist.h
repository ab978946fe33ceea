//===- Worklist.h - the order in which propagation visits sites -*- C++ -*-===//
//
// Where axes conflict, the order of the visits decides which of them a value
// gets, so the worklist follows the one of MLIR's greedy rewrite driver as
// Shardy configures it (top-down, one pass): every site is queued in program
// order at the start of a fixed point and visited in that order; a site whose
// inputs change is queued again only if its turn has passed, on top (visited
// next, last queued first); a site still waiting for its turn keeps its place.
//
// A fixed point that starts from a stable module (the op-priority steps after
// the first) needs to visit only the sites whose factor directions changed:
// the others would find nothing to do at their turn, unless something they
// read changes before it, which queues them. So the program-order part holds
// only the sites that are due (a bit per position), and a site queued before
// its turn is marked there, where the driver would visit it, rather than put
// on top.
//
//   positions: 0 1 2 3 4 5     cursor = 1 (visiting 1)
//   due:           x     x     (2 and 5 wait for their turn)
//   on top:  0             1 changes 0's input: 0 comes next, then 2;
//                            changing 4's input marks 4, visited after 2
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_WORKLIST_H
#define MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_WORKLIST_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sdy {

/// An entry of the worklist: an op, or an edge of a data-flow op that has no
/// `sdy.data_flow_edge` (the op and the edge's owner).
struct WorkItem {
  Operation *op = nullptr;
  Value owner;
  bool operator==(const WorkItem &other) const {
    return op == other.op && owner == other.owner;
  }
};

} // namespace mlir::sdy

namespace llvm {
template <> struct DenseMapInfo<mlir::sdy::WorkItem> {
  static mlir::sdy::WorkItem getEmptyKey() {
    return {DenseMapInfo<mlir::Operation *>::getEmptyKey(), mlir::Value()};
  }
  static mlir::sdy::WorkItem getTombstoneKey() {
    return {DenseMapInfo<mlir::Operation *>::getTombstoneKey(), mlir::Value()};
  }
  static unsigned getHashValue(const mlir::sdy::WorkItem &item) {
    return hash_combine(item.op, item.owner.getAsOpaquePointer());
  }
  static bool isEqual(const mlir::sdy::WorkItem &a,
                      const mlir::sdy::WorkItem &b) {
    return a == b;
  }
};
} // namespace llvm

namespace mlir::sdy {

/// The sites of one fixed point, in the greedy driver's order (see above).
class Worklist {
public:
  /// The sites in program order (the positions); once, before any start().
  void setOrder(ArrayRef<WorkItem> order) {
    items.assign(order.begin(), order.end());
    positions.clear();
    for (auto [i, item] : llvm::enumerate(items))
      positions[item] = i;
    due.resize(items.size());
  }
  ArrayRef<WorkItem> order() const { return items; }

  /// Starts a fixed point with nothing due. What was queued and not visited
  /// in the previous one is due at its position.
  void start() {
    for (const WorkItem &item : stack)
      if (auto it = positions.find(item); it != positions.end())
        due.set(it->second);
    stack.clear();
    queued.clear();
    cursor = -1;
    current = {};
  }
  /// Marks the site at `position` due at its turn.
  void markDue(size_t position) { due.set(position); }

  /// Queues `item`: at its position if its turn hasn't come, else on top.
  /// The site being visited is not queued again (visiting it once more would
  /// find what this visit found).
  void push(const WorkItem &item) {
    if (item == current)
      return;
    if (auto it = positions.find(item);
        it != positions.end() && static_cast<int64_t>(it->second) > cursor) {
      due.set(it->second);
      return;
    }
    if (queued.insert(item).second)
      stack.push_back(item);
  }

  /// The next site to visit (now the current one), or false at the end.
  bool pop(WorkItem &item) {
    if (!stack.empty()) {
      item = stack.pop_back_val();
      queued.erase(item);
    } else {
      int next = cursor < 0 ? due.find_first() : due.find_next(cursor);
      if (next < 0) {
        current = {};
        return false;
      }
      due.reset(next);
      cursor = next;
      item = items[next];
    }
    current = item;
    return true;
  }
  /// Ends the visits of a fixed point (what is queued after stays queued).
  void finish() { current = {}; }

private:
  SmallVector<WorkItem> items;
  llvm::DenseMap<WorkItem, size_t> positions;
  /// Sites waiting for their turn, by position.
  llvm::BitVector due;
  /// The position of the last site visited in program order.
  int64_t cursor = -1;
  /// Sites queued after their turn: last queued, first visited.
  SmallVector<WorkItem> stack;
  llvm::DenseSet<WorkItem> queued;
  WorkItem current;
};

} // namespace mlir::sdy

#endif // MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_WORKLIST_H
