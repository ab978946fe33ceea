// RUN: mesh-opt %s --mesh-cost-report | FileCheck %s

// An sdy program is partitioned on a copy even when its module holds no
// function: the partitioning pipeline's dialects (`func` among them) are
// loaded before the pass manager runs. This aborted ("Loading a dialect
// (func) while in a multi-threaded execution context").

// CHECK-NOT: mesh-cost-report @
// CHECK: module @only_a_mesh
// CHECK-NEXT: sdy.mesh @mesh = <["a"=2]>
module @only_a_mesh {
  sdy.mesh @mesh = <["a"=2]>
}
