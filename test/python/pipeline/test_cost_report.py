"""The cost report on uneven (dynamic) per-device shapes (issue 13 item 4):
a dynamic size is priced at its largest piece, never multiplied as the
dynamic-size marker; a size nothing bounds is counted apart, not guessed."""

from __future__ import annotations

from mlir import ir

import meshsdy.pipeline as pipeline

# 3 rows over 2 devices, K split over the other axis: the partial product's
# rows are uneven (2 and 1), and its all_reduce works on the 2-row piece.
UNEVEN_MATMUL = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<3x4xf32>, %w: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %sx = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
  %m = linalg.matmul ins(%xs, %w : tensor<3x4xf32>, tensor<4x3xf32>) outs(%f : tensor<3x3xf32>) -> tensor<3x3xf32>
  %sr = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ar = mesh.shard %m to %sr : tensor<3x3xf32>
  return %ar : tensor<3x3xf32>
}
"""


def test_uneven_partial_sum_priced_at_largest_piece() -> None:
    with ir.Context():
        module = ir.Module.parse(UNEVEN_MATMUL)
        report = pipeline.spmdize(module)
        assert "tensor<?x3xf32>" in str(module)
    assert report.collectives == {"mesh.all_reduce": 1}
    # 2x3 f32 = 24 bytes; a ring all_reduce over 2 devices sends 2*(2-1)/2 of it.
    assert report.bytes_sent_per_device == {"mesh.all_reduce": 24.0}
    assert not report.unsized_collectives


PARTITIONED = """
mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<?x8xf32>, %y: tensor<?x8xi8>) -> (tensor<?x8xf32>, tensor<?x8xi8>) {
  %a = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<?x8xf32> -> tensor<?x8xf32>
  %b = mesh.all_reduce %y on @mesh mesh_axes = [0] : tensor<?x8xi8> -> tensor<?x8xi8>
  return %a, %b : tensor<?x8xf32>, tensor<?x8xi8>
}
"""


def test_sizes_from_arguments_and_unbounded_sizes() -> None:
    with ir.Context():
        module = ir.Module.parse(PARTITIONED)
        # Only the first argument's largest piece is known (5 rows).
        report = pipeline.collective_report(module, {"f": [[5, 8], None]})
    assert report.collectives == {"mesh.all_reduce": 2}
    # 5x8 f32 = 160 bytes, times 2*(4-1)/4.
    assert report.bytes_sent_per_device == {"mesh.all_reduce": 240.0}
    assert report.unsized_collectives == {"mesh.all_reduce": 1}
    assert report.total_bytes_sent_per_device >= 0


def test_all_gather_of_uneven_piece_uses_result_size() -> None:
    source = """
    mesh.mesh @mesh(shape = 4)
    func.func @f(%x: tensor<?x8xf32>) -> tensor<8x8xf32> {
      %a = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 1 : tensor<?x8xf32> -> tensor<?x32xf32>
      %c = tensor.cast %a : tensor<?x32xf32> to tensor<8x32xf32>
      %s = tensor.extract_slice %c[0, 0] [8, 8] [1, 1] : tensor<8x32xf32> to tensor<8x8xf32>
      return %s : tensor<8x8xf32>
    }
    """
    with ir.Context():
        report = pipeline.collective_report(ir.Module.parse(source), {"f": [[3, 8]]})
    # 3x8 f32 = 96 bytes, sent to 3 peers.
    assert report.bytes_sent_per_device == {"mesh.all_gather": 288}


def test_update_halo_sends_its_halo_widths() -> None:
    source = """
    mesh.mesh @mesh(shape = 2x2)
    func.func @f(%x: tensor<7x5xf32>) -> tensor<7x5xf32> {
      %0 = mesh.update_halo %x on @mesh split_axes = [[0], [1]] halo_sizes = [1, 2, 1, 1] : tensor<7x5xf32>
      return %0 : tensor<7x5xf32>
    }
    """
    with ir.Context():
        report = pipeline.collective_report(ir.Module.parse(source))
    # (1 + 2) rows of 5 and (1 + 1) columns of 7, f32.
    assert report.bytes_sent_per_device == {"mesh.update_halo": (3 * 5 + 2 * 7) * 4}


def test_report_on_a_mesh_of_four_billion_devices() -> None:
    """The largest pieces of the arguments are computed from the mesh shape,
    without listing its devices (a sim.Mesh of 2^32 devices runs out of
    memory)."""
    source = """
    mesh.mesh @mesh(shape = 4294967296)
    func.func @f(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
      %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
      %xs = mesh.shard %x to %s : tensor<6x4xf32>
      %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
      %xr = mesh.shard %xs to %r annotate_for_users : tensor<6x4xf32>
      %y = math.absf %xr : tensor<6x4xf32>
      return %y : tensor<6x4xf32>
    }
    """
    with ir.Context():
        report = pipeline.spmdize(ir.Module.parse(source))
    # One padded 1x4 f32 row (16 bytes) to each of the 2^32 - 1 others.
    assert report.bytes_sent_per_device == {"mesh.all_gather": 16 * (2**32 - 1)}
