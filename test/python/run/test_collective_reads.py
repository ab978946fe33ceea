"""A value read by two collectives, with an op in between reusing its
buffer, runs right natively. convert-mesh-to-mpi reads each collective's
tensor through a `bufferization.to_buffer` where it sends it; a CSE after it
merged the second read into the first, and one-shot bufferization, seeing
no later use, let the op in between write that buffer: the second all_gather
gathered the op's values (the JAX zoo's cumsum, partitioned as below, was
off by up to 5.1 on 4 MPI ranks while the simulator agreed)."""

from __future__ import annotations

import numpy as np

import meshsdy.run as mpirun
from meshsdy import pipeline

#: jax.lax.cumsum along both axes of x and 2x, partitioned on a 2x2 mesh:
#: the zero init %1 is gathered twice (%all_gather_2, %all_gather_5) and %4,
#: between the two gathers, is written into the tensor.empty %1 came from.
PARTITIONED = """
#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1 + d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0 + d2, d1)>
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {mesh.boundary = {arguments = [{global_type = tensor<8x16xf32>, mesh = @mesh, split_axes = [array<i16: 0>, array<i16: 1>]}], results = [{global_type = tensor<8x16xf32>, mesh = @mesh, split_axes = [array<i16: 0>, array<i16: 1>]}, {global_type = tensor<8x16xf32>, mesh = @mesh, split_axes = [array<i16: 0>, array<i16: 1>]}]}} {
    %cst = arith.constant dense<2.000000e+00> : tensor<f32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x8xf32>
    %all_gather = mesh.all_gather %arg0 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
    %padded = tensor.pad %all_gather low[0, 15] high[0, 0] {
    ^bb0(%arg1: index, %arg2: index):
      tensor.yield %cst_0 : f32
    } : tensor<4x16xf32> to tensor<4x31xf32>
    %2 = tensor.empty() : tensor<16xf32>
    %all_gather_2 = mesh.all_gather %1 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
    %3 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%padded, %2 : tensor<4x31xf32>, tensor<16xf32>) outs(%all_gather_2 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %8 = arith.addf %out, %in : f32
      linalg.yield %8 : f32
    } -> tensor<4x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : tensor<f32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x8xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0, %4 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %8 = arith.mulf %in, %in_7 : f32
      linalg.yield %8 : f32
    } -> tensor<4x8xf32>
    %all_gather_3 = mesh.all_gather %5 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
    %padded_4 = tensor.pad %all_gather_3 low[7, 0] high[0, 0] {
    ^bb0(%arg1: index, %arg2: index):
      tensor.yield %cst_0 : f32
    } : tensor<8x8xf32> to tensor<15x8xf32>
    %6 = tensor.empty() : tensor<8xf32>
    %all_gather_5 = mesh.all_gather %1 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map5, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%padded_4, %6 : tensor<15x8xf32>, tensor<8xf32>) outs(%all_gather_5 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %8 = arith.addf %out, %in : f32
      linalg.yield %8 : f32
    } -> tensor<8x8xf32>
    %all_slice = mesh.all_slice %3 on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x8xf32>
    %all_slice_6 = mesh.all_slice %7 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x8xf32> -> tensor<4x8xf32>
    return %all_slice, %all_slice_6 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
"""


def test_a_value_gathered_twice_is_gathered_twice_natively() -> None:
    x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    along_rows, along_columns = mpirun.run(PARTITIONED, "main", [x], ranks=4, partitioned=True)
    np.testing.assert_allclose(along_rows, np.cumsum(x, axis=1), rtol=0, atol=1e-5)
    np.testing.assert_allclose(along_columns, np.cumsum(2 * x, axis=0), rtol=0, atol=1e-5)


def test_no_cse_after_the_mpi_lowering() -> None:
    lowering = pipeline.stages(lower_to="mpi")["lowering"]
    after = lowering[lowering.index("convert-mesh-to-mpi") + 1:]
    assert "cse" not in after, lowering
