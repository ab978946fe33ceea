//===- TraversalOrder.cpp - the option spelling of a traversal ------------===//

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

using namespace mlir;

StringRef mlir::mesh::stringifyTraversalOrder(TraversalOrder order) {
  switch (order) {
  case TraversalOrder::Forward:
    return "forward";
  case TraversalOrder::Backward:
    return "backward";
  case TraversalOrder::ForwardBackward:
    return "forward-backward";
  case TraversalOrder::BackwardForward:
    return "backward-forward";
  }
  return "forward-backward";
}
