// The pipelines of module passes run on a builtin.module or on any op
// given to them; nested in another op they are an error, not an abort
// (upstream aborts when a module pass is added to a func.func pipeline).
// RUN: not mesh-opt %s -pass-pipeline='builtin.module(func.func(sdy-spmdize-pipeline))' 2>&1 | FileCheck %s --check-prefix=SDY
// RUN: not mesh-opt %s -pass-pipeline='builtin.module(func.func(mesh-spmdize-pipeline{staged=true}))' 2>&1 | FileCheck %s --check-prefix=MESH
// RUN: not mesh-opt %s -pass-pipeline='builtin.module(func.func(sdy-propagation-pipeline))' 2>&1 | FileCheck %s --check-prefix=PROP
// RUN: not mesh-opt %s -pass-pipeline='builtin.module(func.func(sdy-import-pipeline))' 2>&1 | FileCheck %s --check-prefix=IMPORT
// RUN: not mesh-opt %s -pass-pipeline='builtin.module(func.func(sdy-export-pipeline))' 2>&1 | FileCheck %s --check-prefix=EXPORT
// SDY: error: 'sdy-spmdize-pipeline' runs on a builtin.module, not on 'func.func': nest it in builtin.module(...)
// MESH: error: 'mesh-spmdize-pipeline' runs on a builtin.module, not on 'func.func': nest it in builtin.module(...)
// PROP: error: 'sdy-propagation-pipeline' runs on a builtin.module, not on 'func.func': nest it in builtin.module(...)
// IMPORT: error: 'sdy-import-pipeline' runs on a builtin.module, not on 'func.func': nest it in builtin.module(...)
// EXPORT: error: 'sdy-export-pipeline' runs on a builtin.module, not on 'func.func': nest it in builtin.module(...)
//
// On a nested module, they run (on any op: test_pipeline.py).
// RUN: mesh-opt %s -pass-pipeline='builtin.module(builtin.module(sdy-spmdize-pipeline))' | FileCheck %s

// CHECK: module @inner
// CHECK-NEXT: mesh.mesh @mesh(shape = 2)
// CHECK-NEXT: func.func @f(%{{.*}}: tensor<4xf32>
module {
  module @inner {
    sdy.mesh @mesh = <["x"=2]>
    func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
      %t = math.tanh %a : tensor<8xf32>
      return %t : tensor<8xf32>
    }
  }
}
