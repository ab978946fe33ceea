"""Communicators kept over a program's calls.

`convert-mesh-to-mpi` splits `MPI_COMM_WORLD` for each collective over a
group of devices, and the mpi dialect can neither keep a communicator nor
free one: the code split the world again on every call and leaked the
communicator, and MPICH has about 2000. Past them the split failed and the
collective reduced nothing (a wrong answer, after about 2040 calls of a
function with one such collective). Each per-rank program therefore calls
the runtime's `meshsdy_comm_split` (lib/Runtime/Comms.c) instead of
`MPI_Comm_split`: the first split with a given parent, color and key is
kept in a table of the program's own and handed out again. That is sound
because `convert-mesh-to-mpi` gives every split of the world colors of its
own (`assignGroupColors`, which marks each split it colored with
`meshsdy.colors`): one parent, color and key is one split on every rank,
and a rank takes a kept communicator exactly when all do. A program with a
split not so marked (written by hand in the mpi dialect) keeps none.
"""

from __future__ import annotations

from mlir import ir

from ._ir import ops_named

__all__ = ["colored_splits", "keep_communicators"]

#: The program's table (a global starting as NULL), the runtime's function,
#: and a function with MPI_Comm_split's signature that passes the table on.
_KEEPER = """
llvm.mlir.global internal @__meshsdy_comms() : !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.func @meshsdy_comm_split(!llvm.ptr, i32, i32, i32, !llvm.ptr) -> i32
llvm.func internal @__meshsdy_comm_split(%parent: i32, %color: i32, %key: i32, %out: !llvm.ptr) -> i32 {
  %table = llvm.mlir.addressof @__meshsdy_comms : !llvm.ptr
  %status = llvm.call @meshsdy_comm_split(%table, %parent, %color, %key, %out)
      : (!llvm.ptr, i32, i32, i32, !llvm.ptr) -> i32
  llvm.return %status : i32
}
"""

#: MPI_Comm_split as mpi-to-llvm declares it for MPICH (MPI_Comm is an int).
_SPLIT_TYPE = "!llvm.func<i32 (i32, i32, i32, ptr)>"


def colored_splits(module: ir.Module) -> bool:
    """Whether every `mpi.comm_split` of the mpi-dialect `module` has colors
    of its own (convert-mesh-to-mpi's `meshsdy.colors`): then its
    communicators may be kept (`keep_communicators`, after the lowering to
    LLVM, which drops the attribute)."""
    return all("meshsdy.colors" in op.attributes for op in ops_named(module, "mpi.comm_split"))


def keep_communicators(module: ir.Module) -> int:
    """Points every call of `MPI_Comm_split` in the LLVM-dialect `module`
    at the program's kept communicators (see the module docstring; only for
    a module whose splits were `colored_splits` before the lowering); returns
    how many calls. A module whose `MPI_Comm_split` has another signature
    (not MPICH's handles) is left alone."""
    with module.context, ir.Location.unknown():
        calls = [op for op in ops_named(module, "llvm.call")
                 if "callee" in op.attributes
                 and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == "MPI_Comm_split"]
        declared = [op for op in ops_named(module, "llvm.func")
                    if ir.StringAttr(op.attributes["sym_name"]).value == "MPI_Comm_split"]
        if not calls or len(declared) != 1 or \
                str(ir.TypeAttr(declared[0].attributes["function_type"]).value) != _SPLIT_TYPE:
            return 0
        keeper = ir.Module.parse(_KEEPER)
        for op in list(keeper.body.operations):
            op.operation.detach_from_parent()
            ir.InsertionPoint(module.body).insert(op)
        for call in calls:
            call.attributes["callee"] = ir.FlatSymbolRefAttr.get("__meshsdy_comm_split")
        return len(calls)
