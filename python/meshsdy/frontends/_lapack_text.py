"""LAPACK's factorizations and BLAS's triangular solve as MLIR text: scf
loops over the pivot column whose steps are linalg ops on the whole matrix.

JAX lowers `jnp.linalg.solve`, `inv`, `det`, `lax.linalg.lu`, `cholesky`
and `solve_triangular` on the CPU to custom calls of LAPACK (`getrf`,
`potrf`, `trsm`), which `_jaxlib_lapack.py` replaces with calls of these
functions. Each step of a loop is a few linalg ops of fixed shape on the
whole matrix, those outside the step's rows or columns masked by compares
with the loop's position (`linalg.index` against the loop variable), and
slices of one row or column at the loop's position: the simulator runs a
step as a few numpy operations, the partitioner sees ordinary ops (a
dynamic slice needs its dimension whole: the matrix is gathered), and the
native runner compiles loops. n steps of O(n^2) work each, O(n^3) in all,
as LAPACK's unblocked forms; not LAPACK's blocked speed.

Their meanings are LAPACK's:

- getrf (m x n, right-looking, partial pivoting): step j picks the first
  row p >= j with the largest |a[p, j]|, records p + 1 (1-based), swaps
  rows j and p, scales the column below the pivot by its reciprocal (a
  division where the pivot is below the smallest normal) and subtracts
  the outer product from the trailing block. A zero pivot is not scaled
  by; info is the first such j + 1 and the factorization goes on.
- potrf (lower or upper): column j of L is (a[:, j] - L[:, :j] L[j, :j])
  with its diagonal's square root, the column below divided by it; info
  is the first j + 1 whose diagonal is not positive (or NaN). The other
  triangle keeps the input's values, as LAPACK leaves it.
- geqrf (m x n, Householder): step i reflects column i's rows below the
  diagonal onto it: beta = -sign(alpha) |(alpha, x)|, tau = (beta -
  alpha) / beta, v = (1, x / (alpha - beta)), the trailing columns C -=
  tau v (v^T C); tau 0 (no reflection) where x is zero or i the last row.
  R in the upper triangle, the v below the diagonal, the taus apart.
- orgqr (m x n from k reflectors): columns k.. of the unit matrix, then
  the reflectors applied from the last to the first, each column i
  becoming its reflector's first column (0 above, 1 - tau, -tau v).
- trsm (side, uplo, trans, diag): op(A) X = B or X op(A) = B, alpha 1;
  only A's triangle is read (its diagonal too unless unit). X op(A) = B
  is op(A)^T X^T = B^T, op(A) = A^T is a transposed A whose other
  triangle is read: every form is a forward or backward substitution,
  row by row, of a lower or upper matrix.

Sums are formed in another order than LAPACK's blocked kernels: results
agree with LAPACK's to rounding, not bit for bit.
"""

from __future__ import annotations

__all__ = ["geqrf_function_text", "getrf_function_text", "orgqr_function_text", "potrf_function_text",
           "trsm_function_text"]


def _t(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{''.join(f'{s}x' for s in shape)}{element}>"


_MAP2 = "affine_map<(d0, d1) -> (d0, d1)>"
_ROW_OF_2 = "affine_map<(d0, d1) -> (0, d1)>"       # a 1 x n row read at column d1
_ROW_AT_D0 = "affine_map<(d0, d1) -> (0, d0)>"      # a 1 x n row read at column d0
_D0 = "affine_map<(d0, d1) -> (d0)>"
_D1 = "affine_map<(d0, d1) -> (d1)>"
_MAP1 = "affine_map<(d0) -> (d0)>"
_SCALAR1 = "affine_map<(d0) -> ()>"


def _common(element: str) -> list[str]:
    return ["  %c0 = arith.constant 0 : index",
            "  %c1 = arith.constant 1 : index",
            f"  %zero = arith.constant 0.000000e+00 : {element}",
            f"  %one = arith.constant 1.000000e+00 : {element}",
            "  %ok = arith.constant 0 : i32"]


def _transpose(value: str, shape: tuple[int, int], element: str, out: str) -> list[str]:
    """`out` = the transpose of `value` (`shape`)."""
    m, n = shape
    return [f"  {out}_init = tensor.empty() : {_t((n, m), element)}",
            f"  {out} = linalg.transpose ins({value} : {_t(shape, element)}) "
            f"outs({out}_init : {_t((n, m), element)}) permutation = [1, 0]"]


def getrf_function_text(name: str, m: int, n: int, element: str) -> str:
    """@name(a: m x n) -> (LU, pivots (1-based, i32), info (i32))."""
    k = min(m, n)
    mat, col, row = _t((m, n), element), _t((m, 1), element), _t((1, n), element)
    vec = _t((m,), element)
    return "\n".join([
        f"func.func private @{name}(%a: {mat}) -> ({mat}, {_t((k,), 'i32')}, tensor<i32>) {{",
        *_common(element),
        f"  %steps = arith.constant {k} : index",
        f"  %none = arith.constant -1.000000e+00 : {element}",
        f"  %smallest = arith.constant {'1.17549435E-38' if element == 'f32' else '2.2250738585072014E-308'}"
        f" : {element}",
        f"  %piv_init = tensor.empty() : {_t((k,), 'i32')}",
        f"  %best_init = tensor.empty() : {_t((), element)}",
        "  %where_init = tensor.empty() : tensor<index>",
        f"  %vec_init = tensor.empty() : {vec}",
        f"  %r:3 = scf.for %j = %c0 to %steps step %c1 iter_args(%lu = %a, %piv = %piv_init, %info = %ok)"
        f" -> ({mat}, {_t((k,), 'i32')}, i32) {{",
        # The pivot: the first row p >= j of the largest |lu[p, j]|.
        f"    %col = tensor.extract_slice %lu[0, %j] [{m}, 1] [1, 1] : {mat} to {col}",
        f"    %colv = tensor.collapse_shape %col [[0, 1]] : {col} into {vec}",
        f"    %best0 = linalg.fill ins(%none : {element}) outs(%best_init : {_t((), element)}) "
        f"-> {_t((), element)}",
        "    %where0 = linalg.fill ins(%j : index) outs(%where_init : tensor<index>) -> tensor<index>",
        f"    %pick:2 = linalg.generic {{indexing_maps = [{_MAP1}, {_SCALAR1}, {_SCALAR1}], "
        f"iterator_types = [\"reduction\"]}} ins(%colv : {vec}) outs(%best0, %where0 : {_t((), element)}, "
        "tensor<index>) {",
        f"    ^bb0(%x: {element}, %b: {element}, %w: index):",
        "      %i = linalg.index 0 : index",
        "      %below = arith.cmpi sge, %i, %j : index",
        f"      %ax = math.absf %x : {element}",
        f"      %larger = arith.cmpf ogt, %ax, %b : {element}",
        "      %take = arith.andi %below, %larger : i1",
        f"      %nb = arith.select %take, %ax, %b : {element}",
        "      %nw = arith.select %take, %i, %w : index",
        f"      linalg.yield %nb, %nw : {element}, index",
        f"    }} -> ({_t((), element)}, tensor<index>)",
        "    %p = tensor.extract %pick#1[] : tensor<index>",
        "    %p1 = arith.addi %p, %c1 : index",
        "    %p32 = arith.index_cast %p1 : index to i32",
        f"    %piv2 = tensor.insert %p32 into %piv[%j] : {_t((k,), 'i32')}",
        # Rows j and p swapped.
        f"    %rowj = tensor.extract_slice %lu[%j, 0] [1, {n}] [1, 1] : {mat} to {row}",
        f"    %rowp = tensor.extract_slice %lu[%p, 0] [1, {n}] [1, 1] : {mat} to {row}",
        f"    %s1 = tensor.insert_slice %rowj into %lu[%p, 0] [1, {n}] [1, 1] : {row} into {mat}",
        f"    %s2 = tensor.insert_slice %rowp into %s1[%j, 0] [1, {n}] [1, 1] : {row} into {mat}",
        # The column below the pivot scaled, and the trailing block updated.
        f"    %pv = tensor.extract %s2[%j, %j] : {mat}",
        f"    %nonzero = arith.cmpf une, %pv, %zero : {element}",
        f"    %apv = math.absf %pv : {element}",
        f"    %normal = arith.cmpf oge, %apv, %smallest : {element}",
        f"    %recip = arith.divf %one, %pv : {element}",
        f"    %col2 = tensor.extract_slice %s2[0, %j] [{m}, 1] [1, 1] : {mat} to {col}",
        f"    %colv2 = tensor.collapse_shape %col2 [[0, 1]] : {col} into {vec}",
        f"    %l = linalg.generic {{indexing_maps = [{_MAP1}, {_MAP1}], iterator_types = [\"parallel\"]}} "
        f"ins(%colv2 : {vec}) outs(%vec_init : {vec}) {{",
        f"    ^bb0(%x: {element}, %u: {element}):",
        "      %i = linalg.index 0 : index",
        "      %under = arith.cmpi sgt, %i, %j : index",
        "      %scale = arith.andi %under, %nonzero : i1",
        f"      %byr = arith.mulf %x, %recip : {element}",
        f"      %byd = arith.divf %x, %pv : {element}",
        f"      %scaled = arith.select %normal, %byr, %byd : {element}",
        f"      %y = arith.select %scale, %scaled, %x : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {vec}",
        f"    %rowj2 = tensor.extract_slice %s2[%j, 0] [1, {n}] [1, 1] : {mat} to {row}",
        f"    %lu2 = linalg.generic {{indexing_maps = [{_D0}, {_ROW_OF_2}, {_MAP2}], "
        f"iterator_types = [\"parallel\", \"parallel\"]}} ins(%l, %rowj2 : {vec}, {row}) outs(%s2 : {mat}) {{",
        f"    ^bb0(%li: {element}, %uk: {element}, %x: {element}):",
        "      %i = linalg.index 0 : index",
        "      %c = linalg.index 1 : index",
        "      %under = arith.cmpi sgt, %i, %j : index",
        "      %right = arith.cmpi sgt, %c, %j : index",
        "      %here = arith.cmpi eq, %c, %j : index",
        "      %trailing = arith.andi %under, %right : i1",
        f"      %prod = arith.mulf %li, %uk : {element}",
        f"      %upd = arith.subf %x, %prod : {element}",
        f"      %y0 = arith.select %trailing, %upd, %x : {element}",
        f"      %y = arith.select %here, %li, %y0 : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {mat}",
        "    %true = arith.constant true",
        "    %first = arith.cmpi eq, %info, %ok : i32",
        "    %zero_pivot = arith.xori %nonzero, %true : i1",
        "    %record = arith.andi %first, %zero_pivot : i1",
        "    %jp = arith.addi %j, %c1 : index",
        "    %j32 = arith.index_cast %jp : index to i32",
        "    %info2 = arith.select %record, %j32, %info : i32",
        f"    scf.yield %lu2, %piv2, %info2 : {mat}, {_t((k,), 'i32')}, i32",
        "  }",
        "  %info_t = tensor.from_elements %r#2 : tensor<i32>",
        f"  return %r#0, %r#1, %info_t : {mat}, {_t((k,), 'i32')}, tensor<i32>",
        "}",
    ])


def potrf_function_text(name: str, n: int, element: str, lower: bool) -> str:
    """@name(a: n x n) -> (the Cholesky factor in `lower`'s triangle, the
    other triangle a's, info (i32)). The upper factor U (a = U^T U) is the
    transpose of the lower one of a^T, which is a, read in its upper
    triangle: the lower factor of a's transpose, transposed back."""
    mat, col, row = _t((n, n), element), _t((n, 1), element), _t((1, n), element)
    vec = _t((n,), element)
    lines = [f"func.func private @{name}(%a: {mat}) -> ({mat}, tensor<i32>) {{", *_common(element),
             f"  %steps = arith.constant {n} : index",
             f"  %vec_init = tensor.empty() : {vec}"]
    start = "%a"
    if not lower:
        lines += _transpose("%a", (n, n), element, "%at")
        start = "%at"
    lines += [
        f"  %r:2 = scf.for %j = %c0 to %steps step %c1 iter_args(%l = {start}, %info = %ok) -> ({mat}, i32) {{",
        f"    %rowj = tensor.extract_slice %l[%j, 0] [1, {n}] [1, 1] : {mat} to {row}",
        f"    %colj = tensor.extract_slice %l[0, %j] [{n}, 1] [1, 1] : {mat} to {col}",
        f"    %colv = tensor.collapse_shape %colj [[0, 1]] : {col} into {vec}",
        # s[i] = sum over k < j of l[i, k] l[j, k]
        f"    %s0 = linalg.fill ins(%zero : {element}) outs(%vec_init : {vec}) -> {vec}",
        f"    %s = linalg.generic {{indexing_maps = [{_MAP2}, {_ROW_OF_2}, {_D0}], "
        f"iterator_types = [\"parallel\", \"reduction\"]}} ins(%l, %rowj : {mat}, {row}) outs(%s0 : {vec}) {{",
        f"    ^bb0(%lik: {element}, %ljk: {element}, %acc: {element}):",
        "      %k = linalg.index 1 : index",
        "      %before = arith.cmpi slt, %k, %j : index",
        f"      %prod = arith.mulf %lik, %ljk : {element}",
        f"      %sum = arith.addf %acc, %prod : {element}",
        f"      %y = arith.select %before, %sum, %acc : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {vec}",
        f"    %c = linalg.sub ins(%colv, %s : {vec}, {vec}) outs(%vec_init : {vec}) -> {vec}",
        f"    %d = tensor.extract %c[%j] : {vec}",
        f"    %positive = arith.cmpf ogt, %d, %zero : {element}",
        f"    %root = math.sqrt %d : {element}",
        f"    %newcol = linalg.generic {{indexing_maps = [{_MAP1}, {_MAP1}, {_MAP1}], "
        f"iterator_types = [\"parallel\"]}} ins(%c, %colv : {vec}, {vec}) outs(%vec_init : {vec}) {{",
        f"    ^bb0(%ci: {element}, %old: {element}, %u: {element}):",
        "      %i = linalg.index 0 : index",
        "      %under = arith.cmpi sgt, %i, %j : index",
        "      %diag = arith.cmpi eq, %i, %j : index",
        f"      %q = arith.divf %ci, %root : {element}",
        f"      %y0 = arith.select %under, %q, %old : {element}",
        f"      %y = arith.select %diag, %root, %y0 : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {vec}",
        f"    %newcol2 = tensor.expand_shape %newcol [[0, 1]] output_shape [{n}, 1] : {vec} into {col}",
        f"    %l2 = tensor.insert_slice %newcol2 into %l[0, %j] [{n}, 1] [1, 1] : {col} into {mat}",
        "    %true = arith.constant true",
        "    %first = arith.cmpi eq, %info, %ok : i32",
        "    %bad = arith.xori %positive, %true : i1",
        "    %record = arith.andi %first, %bad : i1",
        "    %jp = arith.addi %j, %c1 : index",
        "    %j32 = arith.index_cast %jp : index to i32",
        "    %info2 = arith.select %record, %j32, %info : i32",
        f"    scf.yield %l2, %info2 : {mat}, i32",
        "  }",
        "  %info_t = tensor.from_elements %r#1 : tensor<i32>",
    ]
    result = "%r#0"
    if not lower:
        lines += _transpose("%r#0", (n, n), element, "%u")
        result = "%u"
    lines += [f"  return {result}, %info_t : {mat}, tensor<i32>", "}"]
    return "\n".join(lines)


def trsm_function_text(name: str, a_shape: tuple[int, int], b_shape: tuple[int, int], element: str, *,
                       left: bool, lower: bool, transpose: bool, unit: bool) -> str:
    """@name(a, b) -> x with op(a) x = b (`left`) or x op(a) = b, op(a) =
    a^T when `transpose`; a `lower` (else upper) triangular, its diagonal
    ones when `unit`."""
    # M x = c with M = a or a^T, c = b or b^T; M lower when an odd number
    # of the transposes do not undo a's lowness.
    flip_m = transpose != (not left)
    m_lower = lower != flip_m
    n = a_shape[0]
    rows, cols = b_shape if left else (b_shape[1], b_shape[0])
    mat_a, mat_c = _t((n, n), element), _t((rows, cols), element)
    row_m, row_c, vec_c = _t((1, n), element), _t((1, cols), element), _t((cols,), element)
    lines = [f"func.func private @{name}(%a: {mat_a}, %b: {_t(b_shape, element)}) -> ({_t(b_shape, element)}) {{",
             *_common(element), f"  %steps = arith.constant {n} : index",
             f"  %last = arith.constant {n - 1} : index",
             f"  %vec_init = tensor.empty() : {vec_c}"]
    m, c = "%a", "%b"
    if flip_m:
        lines += _transpose("%a", (n, n), element, "%am")
        m = "%am"
    if not left:
        lines += _transpose("%b", b_shape, element, "%bt")
        c = "%bt"
    # Step t solves row i = t (lower: forward) or n - 1 - t (upper: backward),
    # from the rows solved before it: k < i (lower) or k > i (upper).
    lines += [
        f"  %x = scf.for %t = %c0 to %steps step %c1 iter_args(%xs = {c}) -> ({mat_c}) {{",
        "    %i = arith.subi %last, %t : index" if not m_lower else "    %i = arith.addi %t, %c0 : index",
        f"    %mrow = tensor.extract_slice {m}[%i, 0] [1, {n}] [1, 1] : {mat_a} to {row_m}",
        f"    %s0 = linalg.fill ins(%zero : {element}) outs(%vec_init : {vec_c}) -> {vec_c}",
        f"    %s = linalg.generic {{indexing_maps = [{_ROW_AT_D0}, {_MAP2}, {_D1}], iterator_types = [\"reduction\", \"parallel\"]}} "
        f"ins(%mrow, %xs : {row_m}, {mat_c}) outs(%s0 : {vec_c}) {{",
        f"    ^bb0(%mik: {element}, %xkc: {element}, %acc: {element}):",
        "      %k = linalg.index 0 : index",
        f"      %solved = arith.cmpi {'slt' if m_lower else 'sgt'}, %k, %i : index",
        f"      %prod = arith.mulf %mik, %xkc : {element}",
        f"      %sum = arith.addf %acc, %prod : {element}",
        f"      %y = arith.select %solved, %sum, %acc : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {vec_c}",
        f"    %crow = tensor.extract_slice %xs[%i, 0] [1, {cols}] [1, 1] : {mat_c} to {row_c}",
        f"    %crowv = tensor.collapse_shape %crow [[0, 1]] : {row_c} into {vec_c}",
        f"    %diff = linalg.sub ins(%crowv, %s : {vec_c}, {vec_c}) outs(%vec_init : {vec_c}) -> {vec_c}",
    ]
    new = "%diff"
    if not unit:
        new = "%new"
        lines += [f"    %mii = tensor.extract {m}[%i, %i] : {mat_a}",
                  f"    %new = linalg.generic {{indexing_maps = [{_MAP1}, {_MAP1}], iterator_types = [\"parallel\"]}} "
                  f"ins(%diff : {vec_c}) outs(%vec_init : {vec_c}) {{",
                  f"    ^bb0(%v: {element}, %u: {element}):",
                  f"      %q = arith.divf %v, %mii : {element}",
                  f"      linalg.yield %q : {element}",
                  f"    }} -> {vec_c}"]
    lines += [
        f"    %newrow = tensor.expand_shape {new} [[0, 1]] output_shape [1, {cols}] : {vec_c} into {row_c}",
        f"    %xs2 = tensor.insert_slice %newrow into %xs[%i, 0] [1, {cols}] [1, 1] : {row_c} into {mat_c}",
        f"    scf.yield %xs2 : {mat_c}",
        "  }",
    ]
    result = "%x"
    if not left:
        lines += _transpose("%x", (rows, cols), element, "%xt")
        result = "%xt"
    lines += [f"  return {result} : {_t(b_shape, element)}", "}"]
    return "\n".join(lines)


def _reflect_lines(mat_name: str, v: str, tau: str, m: int, n: int, element: str, out: str) -> list[str]:
    """`out` = `mat_name` (m x n) with columns c > %i reflected: C + v (-tau
    v^T C), in the order LAPACK's slarf (a gemv, then a ger) forms it."""
    mat, vec_n = _t((m, n), element), _t((n,), element)
    return [
        f"    {out}_w0 = linalg.fill ins(%zero : {element}) outs(%cols_init : {vec_n}) -> {vec_n}",
        f"    {out}_w = linalg.generic {{indexing_maps = [{_D0}, {_MAP2}, {_D1}], "
        f"iterator_types = [\"reduction\", \"parallel\"]}} ins({v}, {mat_name} : {_t((m,), element)}, {mat}) "
        f"outs({out}_w0 : {vec_n}) {{",
        f"    ^bb0(%vr: {element}, %x: {element}, %acc: {element}):",
        f"      %p = arith.mulf %vr, %x : {element}",
        f"      %y = arith.addf %acc, %p : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {vec_n}",
        f"    {out}_mtau = arith.negf {tau} : {element}",
        f"    {out} = linalg.generic {{indexing_maps = [{_D0}, {_D1}, {_MAP2}], "
        f"iterator_types = [\"parallel\", \"parallel\"]}} ins({v}, {out}_w : {_t((m,), element)}, {vec_n}) "
        f"outs({mat_name} : {mat}) {{",
        f"    ^bb0(%vr: {element}, %wc: {element}, %x: {element}):",
        "      %c = linalg.index 1 : index",
        "      %right = arith.cmpi sgt, %c, %i : index",
        f"      %tw = arith.mulf {out}_mtau, %wc : {element}",
        f"      %p = arith.mulf %vr, %tw : {element}",
        f"      %upd = arith.addf %x, %p : {element}",
        f"      %y = arith.select %right, %upd, %x : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {mat}",
    ]


def geqrf_function_text(name: str, m: int, n: int, element: str) -> str:
    """@name(a: m x n) -> (R and the reflectors, the k = min(m, n) taus)."""
    k = min(m, n)
    mat, col, vec_m = _t((m, n), element), _t((m, 1), element), _t((m,), element)
    taus = _t((k,), element)
    return "\n".join([
        f"func.func private @{name}(%a: {mat}) -> ({mat}, {taus}) {{",
        *_common(element),
        f"  %steps = arith.constant {k} : index",
        f"  %last_row = arith.constant {m - 1} : index",
        f"  %rows_init = tensor.empty() : {vec_m}",
        f"  %cols_init = tensor.empty() : {_t((n,), element)}",
        f"  %taus_init = tensor.empty() : {taus}",
        f"  %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%q = %a, %ts = %taus_init) -> ({mat}, {taus}) {{",
        f"    %col = tensor.extract_slice %q[0, %i] [{m}, 1] [1, 1] : {mat} to {col}",
        f"    %colv = tensor.collapse_shape %col [[0, 1]] : {col} into {vec_m}",
        f"    %alpha = tensor.extract %colv[%i] : {vec_m}",
        f"    %init = tensor.empty() : {_t((), element)}",
        f"    %x0 = linalg.fill ins(%zero : {element}) outs(%init : {_t((), element)}) -> {_t((), element)}",
        f"    %xs = linalg.generic {{indexing_maps = [{_MAP1}, {_SCALAR1}], iterator_types = [\"reduction\"]}} "
        f"ins(%colv : {vec_m}) outs(%x0 : {_t((), element)}) {{",
        f"    ^bb0(%x: {element}, %acc: {element}):",
        "      %r = linalg.index 0 : index",
        "      %below = arith.cmpi sgt, %r, %i : index",
        f"      %sq = arith.mulf %x, %x : {element}",
        f"      %sum = arith.addf %acc, %sq : {element}",
        f"      %y = arith.select %below, %sum, %acc : {element}",
        f"      linalg.yield %y : {element}",
        f"    }} -> {_t((), element)}",
        f"    %xnorm2 = tensor.extract %xs[] : {_t((), element)}",
        f"    %nothing = arith.cmpf oeq, %xnorm2, %zero : {element}",
        "    %bottom = arith.cmpi eq, %i, %last_row : index",
        "    %trivial = arith.ori %nothing, %bottom : i1",
        f"    %a2 = arith.mulf %alpha, %alpha : {element}",
        f"    %n2 = arith.addf %a2, %xnorm2 : {element}",
        f"    %norm = math.sqrt %n2 : {element}",
        f"    %signed = math.copysign %norm, %alpha : {element}",
        f"    %beta = arith.negf %signed : {element}",
        f"    %bma = arith.subf %beta, %alpha : {element}",
        f"    %tau0 = arith.divf %bma, %beta : {element}",
        f"    %tau = arith.select %trivial, %zero, %tau0 : {element}",
        f"    %amb = arith.subf %alpha, %beta : {element}",
        f"    %scale = arith.divf %one, %amb : {element}",
        f"    %head = arith.select %trivial, %alpha, %beta : {element}",
        # v (1 at i, the scaled x below, 0 above) and column i's new values.
        f"    %vcol:2 = linalg.generic {{indexing_maps = [{_MAP1}, {_MAP1}, {_MAP1}], "
        f"iterator_types = [\"parallel\"]}} ins(%colv : {vec_m}) outs(%rows_init, %rows_init : {vec_m}, {vec_m}) {{",
        f"    ^bb0(%x: {element}, %u: {element}, %u2: {element}):",
        "      %r = linalg.index 0 : index",
        "      %below = arith.cmpi sgt, %r, %i : index",
        "      %diag = arith.cmpi eq, %r, %i : index",
        f"      %sx = arith.mulf %x, %scale : {element}",
        f"      %vb = arith.select %trivial, %zero, %sx : {element}",
        f"      %v0 = arith.select %below, %vb, %zero : {element}",
        f"      %v = arith.select %diag, %one, %v0 : {element}",
        f"      %kb = arith.select %trivial, %x, %sx : {element}",
        f"      %k0 = arith.select %below, %kb, %x : {element}",
        f"      %kept = arith.select %diag, %head, %k0 : {element}",
        f"      linalg.yield %v, %kept : {element}, {element}",
        f"    }} -> ({vec_m}, {vec_m})",
        *_reflect_lines("%q", "%vcol#0", "%tau", m, n, element, "%q2"),
        f"    %newcol = tensor.expand_shape %vcol#1 [[0, 1]] output_shape [{m}, 1] : {vec_m} into {col}",
        f"    %q3 = tensor.insert_slice %newcol into %q2[0, %i] [{m}, 1] [1, 1] : {col} into {mat}",
        f"    %ts2 = tensor.insert %tau into %ts[%i] : {taus}",
        f"    scf.yield %q3, %ts2 : {mat}, {taus}",
        "  }",
        f"  return %r#0, %r#1 : {mat}, {taus}",
        "}",
    ])


def orgqr_function_text(name: str, m: int, n: int, k: int, element: str) -> str:
    """@name(a: m x n holding k reflectors below its diagonal, taus: k) ->
    Q (m x n), the product of the reflectors applied to the unit matrix's
    first n columns."""
    mat, col, vec_m = _t((m, n), element), _t((m, 1), element), _t((m,), element)
    taus = _t((k,), element)
    return "\n".join([
        f"func.func private @{name}(%a: {mat}, %taus: {taus}) -> {mat} {{",
        *_common(element),
        f"  %steps = arith.constant {k} : index",
        f"  %last = arith.constant {k - 1} : index",
        f"  %rows_init = tensor.empty() : {vec_m}",
        f"  %cols_init = tensor.empty() : {_t((n,), element)}",
        f"  %unit_init = tensor.empty() : {mat}",
        # Columns k.. are the unit matrix's.
        f"  %start = linalg.generic {{indexing_maps = [{_MAP2}, {_MAP2}], iterator_types = [\"parallel\", \"parallel\"]}} "
        f"ins(%a : {mat}) outs(%unit_init : {mat}) {{",
        f"  ^bb0(%x: {element}, %u: {element}):",
        "    %r = linalg.index 0 : index",
        "    %c = linalg.index 1 : index",
        "    %kc = arith.constant " f"{k} : index",
        "    %free = arith.cmpi sge, %c, %kc : index",
        "    %diag = arith.cmpi eq, %r, %c : index",
        f"    %e = arith.select %diag, %one, %zero : {element}",
        f"    %y = arith.select %free, %e, %x : {element}",
        f"    linalg.yield %y : {element}",
        f"  }} -> {mat}",
        f"  %q = scf.for %t = %c0 to %steps step %c1 iter_args(%qs = %start) -> ({mat}) {{",
        "    %i = arith.subi %last, %t : index",
        f"    %tau = tensor.extract %taus[%i] : {taus}",
        f"    %col = tensor.extract_slice %qs[0, %i] [{m}, 1] [1, 1] : {mat} to {col}",
        f"    %colv = tensor.collapse_shape %col [[0, 1]] : {col} into {vec_m}",
        f"    %mtau = arith.negf %tau : {element}",
        f"    %one_minus = arith.subf %one, %tau : {element}",
        f"    %vcol:2 = linalg.generic {{indexing_maps = [{_MAP1}, {_MAP1}, {_MAP1}], "
        f"iterator_types = [\"parallel\"]}} ins(%colv : {vec_m}) outs(%rows_init, %rows_init : {vec_m}, {vec_m}) {{",
        f"    ^bb0(%x: {element}, %u: {element}, %u2: {element}):",
        "      %r = linalg.index 0 : index",
        "      %below = arith.cmpi sgt, %r, %i : index",
        "      %diag = arith.cmpi eq, %r, %i : index",
        f"      %v0 = arith.select %below, %x, %zero : {element}",
        f"      %v = arith.select %diag, %one, %v0 : {element}",
        f"      %sx = arith.mulf %x, %mtau : {element}",
        f"      %n0 = arith.select %below, %sx, %zero : {element}",
        f"      %new = arith.select %diag, %one_minus, %n0 : {element}",
        f"      linalg.yield %v, %new : {element}, {element}",
        f"    }} -> ({vec_m}, {vec_m})",
        *_reflect_lines("%qs", "%vcol#0", "%tau", m, n, element, "%q2"),
        f"    %newcol = tensor.expand_shape %vcol#1 [[0, 1]] output_shape [{m}, 1] : {vec_m} into {col}",
        f"    %q3 = tensor.insert_slice %newcol into %q2[0, %i] [{m}, 1] [1, 1] : {col} into {mat}",
        f"    scf.yield %q3 : {mat}",
        "  }",
        f"  return %q : {mat}",
        "}",
    ])
