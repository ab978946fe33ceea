"""LAPACK's factorizations and BLAS's triangular solve as MLIR text: scf
loops over the pivot column whose steps are linalg ops on whole batches of
matrices.

JAX lowers `jnp.linalg.solve`, `inv`, `det`, `lax.linalg.lu`, `cholesky`,
`solve_triangular` and `qr` on the CPU to custom calls of LAPACK
(`getrf`, `potrf`, `trsm`, `geqrf`, `orgqr`), which `_jaxlib_lapack.py`
replaces with calls of these functions. Each step of a loop is a few
linalg ops of fixed shape on every matrix of the batch at once (the batch
dimensions are parallel loops of every op), those outside the step's rows
or columns masked by compares with the loop's position (`linalg.index`
against the loop variable), and slices of one row or column at the loop's
position. A value per matrix (a pivot, a diagonal element, a tau) is a
[batch..., 1, 1] tensor, a row [batch..., 1, n], a column [batch..., m,
1]. The simulator runs a step as a few numpy operations; the partitioner
sees ordinary ops whose batch dimensions it may keep split (a slice at the
loop's position needs the matrix dimensions whole); the native runner
compiles loops. n steps of O(n^2) work each, O(n^3) in all, as LAPACK's
unblocked forms; not LAPACK's blocked speed.

Their meanings are LAPACK's:

- getrf (m x n, right-looking, partial pivoting): step j picks the first
  row p >= j with the largest |a[p, j]|, records p + 1 (1-based), swaps
  rows j and p, scales the column below the pivot by its reciprocal (a
  division where the pivot is below the smallest normal) and subtracts
  the outer product from the trailing block. A zero pivot is not scaled
  by; info is the first such j + 1 and the factorization goes on. Row p
  differs from matrix to matrix: it is read as a sum over the rows that
  adds only row p to -0.0 (exact, -0.0 and NaN included).
- potrf (lower or upper): column j of L is (a[:, j] - L[:, :j] L[j, :j])
  with its diagonal's square root, the column below divided by it; info
  is the first j + 1 whose diagonal is not positive (or NaN). The other
  triangle keeps the input's values, as LAPACK leaves it. The upper factor
  is the transpose of the lower one of a's transpose.
- geqrf (m x n, Householder): step i reflects column i's rows below the
  diagonal onto it: beta = -sign(alpha) |(alpha, x)|, tau = (beta -
  alpha) / beta, v = (1, x / (alpha - beta)), the trailing columns C +=
  v (-tau v^T C); tau 0 (no reflection) where x is zero or i the last row.
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

from collections.abc import Sequence

__all__ = ["geqrf_function_text", "getrf_function_text", "orgqr_function_text", "potrf_function_text",
           "trsm_function_text"]

#: The smallest normal number of each type (LAPACK's sfmin for the pivot).
_SMALLEST_NORMAL = {"f32": "1.17549435E-38", "f64": "2.2250738585072014E-308"}


class _Text:
    """The lines of one function over a batch of matrices: every linalg op
    has the batch's loops, then two loops r (rows) and c (columns)."""

    def __init__(self, batch: Sequence[int], element: str) -> None:
        self.batch, self.nb, self.element = tuple(batch), len(batch), element
        self.lines: list[str] = []

    def t(self, rows: int, cols: int, element: str | None = None) -> str:
        """The type of a batch of rows x cols tensors."""
        dims = [*self.batch, rows, cols]
        return f"tensor<{''.join(f'{s}x' for s in dims)}{element or self.element}>"

    def map(self, row: str, col: str) -> str:
        """The map reading a batch tensor at (row, col): each "r", "c" or "0"."""
        loops = [f"d{i}" for i in range(self.nb + 2)]
        name = {"r": loops[self.nb], "c": loops[self.nb + 1], "0": "0"}
        return f"affine_map<({', '.join(loops)}) -> ({', '.join([*loops[:self.nb], name[row], name[col]])})>"

    def index(self, loop: str) -> str:
        """The linalg.index of loop r or c."""
        return str(self.nb + (loop == "c"))

    def slice(self, out: str, source: str, source_type: str, at: tuple[str, str], size: tuple[int, int]) -> None:
        zeros = "0, " * self.nb
        sizes = "".join(f"{s}, " for s in self.batch)
        self.lines.append(f"    {out} = tensor.extract_slice {source}[{zeros}{at[0]}, {at[1]}] "
                          f"[{sizes}{size[0]}, {size[1]}] [{'1, ' * self.nb}1, 1] : {source_type} to "
                          f"{self.t(*size)}")

    def insert(self, out: str, value: str, dest: str, dest_type: str, at: tuple[str, str], size: tuple[int, int],
               element: str | None = None) -> None:
        zeros = "0, " * self.nb
        sizes = "".join(f"{s}, " for s in self.batch)
        self.lines.append(f"    {out} = tensor.insert_slice {value} into {dest}[{zeros}{at[0]}, {at[1]}] "
                          f"[{sizes}{size[0]}, {size[1]}] [{'1, ' * self.nb}1, 1] : {self.t(*size, element)} into "
                          f"{dest_type}")

    def generic(self, outs: str, ins: Sequence[tuple[str, str, str]], inits: Sequence[tuple[str, str, str]],
                iterators: tuple[str, str], args: Sequence[str], body: Sequence[str], indent: str = "    ") -> None:
        """`outs` = a linalg.generic of `ins` and `inits` (value, type,
        (row, col) read as a map), loops r and c of `iterators` kinds, block
        arguments `args` (name: type), `body` ending in its yield."""
        maps = ", ".join(self.map(*m) for _, _, m in [*ins, *inits])
        kinds = ", ".join(['"parallel"'] * self.nb + [f'"{k}"' for k in iterators])
        ins_text = f"ins({', '.join(v for v, _, _ in ins)} : {', '.join(t for _, t, _ in ins)}) " if ins else ""
        result_types = ", ".join(t for _, t, _ in inits)
        self.lines += [
            f"{indent}{outs} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{kinds}]}} "
            f"{ins_text}outs({', '.join(v for v, _, _ in inits)} : {result_types}) {{",
            f"{indent}^bb0({', '.join(args)}):",
            *(f"{indent}  {line}" for line in body),
            f"{indent}}} -> {result_types if len(inits) == 1 else '(' + result_types + ')'}",
        ]

    def transpose(self, out: str, value: str, rows: int, cols: int) -> None:
        perm = ", ".join(map(str, [*range(self.nb), self.nb + 1, self.nb]))
        self.lines += [f"  {out}_init = tensor.empty() : {self.t(cols, rows)}",
                       f"  {out} = linalg.transpose ins({value} : {self.t(rows, cols)}) "
                       f"outs({out}_init : {self.t(cols, rows)}) permutation = [{perm}]"]

    def drop_unit(self, out: str, value: str, keep: int | None, element: str) -> tuple[str, str]:
        """`value`, a [batch..., 1, keep or 1] tensor, without its unit
        dimensions: [batch..., keep] (or [batch...]). Returns (out, its type)."""
        dims = [*self.batch] + ([keep] if keep is not None else [])
        to = f"tensor<{''.join(f'{s}x' for s in dims)}{element}>"
        # The unit dimensions join the last batch dimension (or the kept one).
        head = [[i] for i in range(self.nb - 1)]
        if keep is not None:
            groups = [*head, [self.nb - 1, self.nb], [self.nb + 1]] if self.nb else [[0, 1]]
        else:
            groups = [*head, [self.nb - 1, self.nb, self.nb + 1]] if self.nb else []
        text = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        self.lines.append(f"  {out} = tensor.collapse_shape {value} {text} : {self.t(1, keep or 1, element)} "
                          f"into {to}")
        return out, to

    def add_unit(self, out: str, value: str, keep: int, element: str) -> None:
        """`value`, a [batch..., keep] tensor, as [batch..., 1, keep]."""
        head = [[i] for i in range(self.nb - 1)]
        groups = [*head, [self.nb - 1, self.nb], [self.nb + 1]] if self.nb else [[0, 1]]
        text = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        source = f"tensor<{''.join(f'{s}x' for s in [*self.batch, keep])}{element}>"
        shape = ", ".join(map(str, [*self.batch, 1, keep]))
        self.lines.append(f"  {out} = tensor.expand_shape {value} {text} output_shape [{shape}] : {source} into "
                          f"{self.t(1, keep, element)}")

    def constants(self) -> None:
        e = self.element
        self.lines += ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
                       f"  %zero = arith.constant 0.000000e+00 : {e}", f"  %one = arith.constant 1.000000e+00 : {e}",
                       "  %ok = arith.constant 0 : i32"]

    def fill(self, out: str, value: str, rows: int, cols: int, element: str | None = None) -> None:
        t = self.t(rows, cols, element)
        self.lines += [f"    {out}_empty = tensor.empty() : {t}",
                       f"    {out} = linalg.fill ins({value} : {element or self.element}) outs({out}_empty : {t}) -> {t}"]

    def record_info(self, out: str, info: str, bad: Sequence[tuple[str, str]], bad_body: Sequence[str],
                    position: str) -> None:
        """`out` = `info` ([batch..., 1, 1] i32) set to `position` + 1 where
        it is 0 and `bad_body` (over the [batch..., 1, 1] values `bad`,
        defining %bad) holds."""
        i32 = self.t(1, 1, "i32")
        self.lines += [f"    %{out}_p = arith.addi {position}, %c1 : index",
                       f"    %{out}_p32 = arith.index_cast %{out}_p : index to i32"]
        self.generic(f"%{out}", [(v, self.t(1, 1), ("r", "c")) for v, _ in bad], [(info, i32, ("r", "c"))],
                     ("parallel", "parallel"), [f"{name}: {self.element}" for _, name in bad] + ["%was: i32"],
                     [*bad_body, "%first = arith.cmpi eq, %was, %ok : i32", "%record = arith.andi %first, %bad : i1",
                      f"%y = arith.select %record, %{out}_p32, %was : i32", "linalg.yield %y : i32"])


def getrf_function_text(name: str, m: int, n: int, element: str, batch: Sequence[int] = ()) -> str:
    """@name(a: batch x m x n) -> (LU, pivots (1-based, i32, batch x
    min(m, n)), info (i32, batch))."""
    x, k, e = _Text(batch, element), min(m, n), element
    mat, col, row, one = x.t(m, n), x.t(m, 1), x.t(1, n), x.t(1, 1)
    pivots, index1 = x.t(1, k, "i32"), x.t(1, 1, "index")
    x.constants()
    x.lines += [f"  %steps = arith.constant {k} : index",
                f"  %none = arith.constant -1.000000e+00 : {e}",
                f"  %smallest = arith.constant {_SMALLEST_NORMAL[e]} : {e}",
                f"  %negzero = arith.constant -0.000000e+00 : {e}",
                f"  %piv_init = tensor.empty() : {pivots}",
                f"  %info_empty = tensor.empty() : {x.t(1, 1, 'i32')}",
                f"  %info_init = linalg.fill ins(%ok : i32) outs(%info_empty : {x.t(1, 1, 'i32')}) -> "
                f"{x.t(1, 1, 'i32')}",
                f"  %r:3 = scf.for %j = %c0 to %steps step %c1 iter_args(%lu = %a, %piv = %piv_init, "
                f"%info = %info_init) -> ({mat}, {pivots}, {x.t(1, 1, 'i32')}) {{"]
    # The pivot: the first row p >= j of the largest |lu[p, j]|.
    x.slice("%col", "%lu", mat, ("0", "%j"), (m, 1))
    x.fill("%best0", "%none", 1, 1)
    x.fill("%where0", "%j", 1, 1, "index")
    x.generic("%pick:2", [("%col", col, ("r", "c"))], [("%best0", one, ("0", "c")), ("%where0", index1, ("0", "c"))],
              ("reduction", "parallel"), [f"%v: {e}", f"%b: {e}", "%w: index"],
              [f"%i = linalg.index {x.index('r')} : index", "%below = arith.cmpi sge, %i, %j : index",
               f"%av = math.absf %v : {e}", f"%larger = arith.cmpf ogt, %av, %b : {e}",
               "%take = arith.andi %below, %larger : i1", f"%nb = arith.select %take, %av, %b : {e}",
               "%nw = arith.select %take, %i, %w : index", f"linalg.yield %nb, %nw : {e}, index"])
    x.lines += [f"    %p32_empty = tensor.empty() : {x.t(1, 1, 'i32')}"]
    x.generic("%p32", [("%pick#1", index1, ("r", "c"))], [("%p32_empty", x.t(1, 1, "i32"), ("r", "c"))],
              ("parallel", "parallel"), ["%p: index", "%u: i32"],
              ["%p1 = arith.addi %p, %c1 : index", "%y = arith.index_cast %p1 : index to i32", "linalg.yield %y : i32"])
    x.insert("%piv2", "%p32", "%piv", pivots, ("0", "%j"), (1, 1), "i32")
    # Rows j and p swapped (row p read as a sum that adds only it to -0.0).
    x.slice("%rowj", "%lu", mat, ("%j", "0"), (1, n))
    x.fill("%rowp0", "%negzero", 1, n)
    x.generic("%rowp", [("%lu", mat, ("r", "c")), ("%pick#1", index1, ("0", "0"))], [("%rowp0", row, ("0", "c"))],
              ("reduction", "parallel"), [f"%v: {e}", "%p: index", f"%acc: {e}"],
              [f"%i = linalg.index {x.index('r')} : index", "%at = arith.cmpi eq, %i, %p : index",
               f"%sum = arith.addf %acc, %v : {e}", f"%y = arith.select %at, %sum, %acc : {e}",
               f"linalg.yield %y : {e}"])
    x.lines += [f"    %swap_empty = tensor.empty() : {mat}"]
    x.generic("%s2", [("%lu", mat, ("r", "c")), ("%rowj", row, ("0", "c")), ("%rowp", row, ("0", "c")),
                      ("%pick#1", index1, ("0", "0"))], [("%swap_empty", mat, ("r", "c"))],
              ("parallel", "parallel"), [f"%v: {e}", f"%vj: {e}", f"%vp: {e}", "%p: index", f"%u: {e}"],
              [f"%i = linalg.index {x.index('r')} : index", "%is_j = arith.cmpi eq, %i, %j : index",
               "%is_p = arith.cmpi eq, %i, %p : index", f"%y0 = arith.select %is_p, %vj, %v : {e}",
               f"%y = arith.select %is_j, %vp, %y0 : {e}", f"linalg.yield %y : {e}"])
    # The column below the pivot scaled, and the trailing block updated.
    x.slice("%pv", "%s2", mat, ("%j", "%j"), (1, 1))
    x.slice("%col2", "%s2", mat, ("0", "%j"), (m, 1))
    x.lines += [f"    %l_empty = tensor.empty() : {col}"]
    x.generic("%l", [("%col2", col, ("r", "c")), ("%pv", one, ("0", "0"))], [("%l_empty", col, ("r", "c"))],
              ("parallel", "parallel"), [f"%v: {e}", f"%pvv: {e}", f"%u: {e}"],
              [f"%i = linalg.index {x.index('r')} : index", "%under = arith.cmpi sgt, %i, %j : index",
               f"%nonzero = arith.cmpf une, %pvv, %zero : {e}", "%scale = arith.andi %under, %nonzero : i1",
               f"%apv = math.absf %pvv : {e}", f"%normal = arith.cmpf oge, %apv, %smallest : {e}",
               f"%recip = arith.divf %one, %pvv : {e}", f"%byr = arith.mulf %v, %recip : {e}",
               f"%byd = arith.divf %v, %pvv : {e}", f"%scaled = arith.select %normal, %byr, %byd : {e}",
               f"%y = arith.select %scale, %scaled, %v : {e}", f"linalg.yield %y : {e}"])
    x.slice("%rowj2", "%s2", mat, ("%j", "0"), (1, n))
    x.generic("%lu2", [("%l", col, ("r", "0")), ("%rowj2", row, ("0", "c"))], [("%s2", mat, ("r", "c"))],
              ("parallel", "parallel"), [f"%li: {e}", f"%uk: {e}", f"%v: {e}"],
              [f"%i = linalg.index {x.index('r')} : index", f"%c = linalg.index {x.index('c')} : index",
               "%under = arith.cmpi sgt, %i, %j : index", "%right = arith.cmpi sgt, %c, %j : index",
               "%here = arith.cmpi eq, %c, %j : index", "%trailing = arith.andi %under, %right : i1",
               f"%prod = arith.mulf %li, %uk : {e}", f"%upd = arith.subf %v, %prod : {e}",
               f"%y0 = arith.select %trailing, %upd, %v : {e}", f"%y = arith.select %here, %li, %y0 : {e}",
               f"linalg.yield %y : {e}"])
    x.record_info("info2", "%info", [("%pv", "%pvv")], [f"%bad = arith.cmpf oeq, %pvv, %zero : {e}"], "%j")
    x.lines += [f"    scf.yield %lu2, %piv2, %info2 : {mat}, {pivots}, {x.t(1, 1, 'i32')}", "  }"]
    piv_out, piv_type = x.drop_unit("%pivots", "%r#1", k, "i32")
    info_out, info_type = x.drop_unit("%infos", "%r#2", None, "i32")
    return "\n".join([f"func.func private @{name}(%a: {mat}) -> ({mat}, {piv_type}, {info_type}) {{", *x.lines,
                      f"  return %r#0, {piv_out}, {info_out} : {mat}, {piv_type}, {info_type}", "}"])


def potrf_function_text(name: str, n: int, element: str, lower: bool, batch: Sequence[int] = ()) -> str:
    """@name(a: batch x n x n) -> (the Cholesky factor in `lower`'s
    triangle, the other triangle a's, info (i32, batch))."""
    x, e = _Text(batch, element), element
    mat, col, row, one, i32 = x.t(n, n), x.t(n, 1), x.t(1, n), x.t(1, 1), x.t(1, 1, "i32")
    x.constants()
    x.lines += [f"  %steps = arith.constant {n} : index", f"  %info_empty = tensor.empty() : {i32}",
                f"  %info_init = linalg.fill ins(%ok : i32) outs(%info_empty : {i32}) -> {i32}"]
    start = "%a"
    if not lower:
        x.transpose("%at", "%a", n, n)
        start = "%at"
    x.lines.append(f"  %r:2 = scf.for %j = %c0 to %steps step %c1 iter_args(%l = {start}, %info = %info_init) "
                   f"-> ({mat}, {i32}) {{")
    x.slice("%rowj", "%l", mat, ("%j", "0"), (1, n))
    x.slice("%colj", "%l", mat, ("0", "%j"), (n, 1))
    # c = l[:, j] - sum over k < j of l[:, k] l[j, k]
    x.fill("%s0", "%zero", n, 1)
    x.generic("%s", [("%l", mat, ("r", "c")), ("%rowj", row, ("0", "c"))], [("%s0", col, ("r", "0"))],
              ("parallel", "reduction"), [f"%lik: {e}", f"%ljk: {e}", f"%acc: {e}"],
              [f"%k = linalg.index {x.index('c')} : index", "%before = arith.cmpi slt, %k, %j : index",
               f"%prod = arith.mulf %lik, %ljk : {e}", f"%sum = arith.addf %acc, %prod : {e}",
               f"%y = arith.select %before, %sum, %acc : {e}", f"linalg.yield %y : {e}"])
    x.lines.append(f"    %c_empty = tensor.empty() : {col}")
    x.lines.append(f"    %c = linalg.sub ins(%colj, %s : {col}, {col}) outs(%c_empty : {col}) -> {col}")
    x.slice("%d", "%c", col, ("%j", "0"), (1, 1))
    x.generic("%newcol", [("%c", col, ("r", "c")), ("%d", one, ("0", "0"))], [("%colj", col, ("r", "c"))],
              ("parallel", "parallel"), [f"%ci: {e}", f"%dd: {e}", f"%old: {e}"],
              [f"%i = linalg.index {x.index('r')} : index", "%under = arith.cmpi sgt, %i, %j : index",
               "%diag = arith.cmpi eq, %i, %j : index", f"%root = math.sqrt %dd : {e}",
               f"%q = arith.divf %ci, %root : {e}", f"%y0 = arith.select %under, %q, %old : {e}",
               f"%y = arith.select %diag, %root, %y0 : {e}", f"linalg.yield %y : {e}"])
    x.insert("%l2", "%newcol", "%l", mat, ("0", "%j"), (n, 1))
    x.record_info("info2", "%info", [("%d", "%dd")],
                  [f"%positive = arith.cmpf ogt, %dd, %zero : {e}", "%true = arith.constant true",
                   "%bad = arith.xori %positive, %true : i1"], "%j")
    x.lines += [f"    scf.yield %l2, %info2 : {mat}, {i32}", "  }"]
    result = "%r#0"
    if not lower:
        x.transpose("%u", "%r#0", n, n)
        result = "%u"
    info_out, info_type = x.drop_unit("%infos", "%r#1", None, "i32")
    return "\n".join([f"func.func private @{name}(%a: {mat}) -> ({mat}, {info_type}) {{", *x.lines,
                      f"  return {result}, {info_out} : {mat}, {info_type}", "}"])


def trsm_function_text(name: str, a_shape: tuple[int, int], b_shape: tuple[int, int], element: str, *,
                       left: bool, lower: bool, transpose: bool, unit: bool, batch: Sequence[int] = ()) -> str:
    """@name(a, b) -> x with op(a) x = b (`left`) or x op(a) = b, op(a) =
    a^T when `transpose`; a `lower` (else upper) triangular, its diagonal
    ones when `unit`; a, b and x with the leading `batch` dimensions."""
    x, e = _Text(batch, element), element
    # M y = c with M = a or a^T, c = b or b^T; M lower when an odd number
    # of the transposes do not undo a's lowness.
    flip_m = transpose != (not left)
    m_lower = lower != flip_m
    n = a_shape[0]
    rows, cols = b_shape if left else (b_shape[1], b_shape[0])
    mat_a, mat_b, mat_c, row_m, row_c = x.t(n, n), x.t(*b_shape), x.t(rows, cols), x.t(1, n), x.t(1, cols)
    x.constants()
    x.lines += [f"  %steps = arith.constant {n} : index", f"  %last = arith.constant {n - 1} : index"]
    m, c = "%a", "%b"
    if flip_m:
        x.transpose("%am", "%a", n, n)
        m = "%am"
    if not left:
        x.transpose("%bt", "%b", *b_shape)
        c = "%bt"
    # Step t solves row i = t (lower: forward) or n - 1 - t (upper: backward),
    # from the rows solved before it: k < i (lower) or k > i (upper).
    x.lines += [f"  %y = scf.for %t = %c0 to %steps step %c1 iter_args(%ys = {c}) -> ({mat_c}) {{",
                "    %i = arith.subi %last, %t : index" if not m_lower else "    %i = arith.addi %t, %c0 : index"]
    x.slice("%mrow", m, mat_a, ("%i", "0"), (1, n))
    x.fill("%s0", "%zero", 1, cols)
    x.generic("%s", [("%mrow", row_m, ("0", "r")), ("%ys", mat_c, ("r", "c"))], [("%s0", row_c, ("0", "c"))],
              ("reduction", "parallel"), [f"%mik: {e}", f"%ykc: {e}", f"%acc: {e}"],
              [f"%k = linalg.index {x.index('r')} : index",
               f"%solved = arith.cmpi {'slt' if m_lower else 'sgt'}, %k, %i : index",
               f"%prod = arith.mulf %mik, %ykc : {e}", f"%sum = arith.addf %acc, %prod : {e}",
               f"%y = arith.select %solved, %sum, %acc : {e}", f"linalg.yield %y : {e}"])
    x.slice("%crow", "%ys", mat_c, ("%i", "0"), (1, cols))
    x.slice("%mii", m, mat_a, ("%i", "%i"), (1, 1))
    divide = [] if unit else [f"%q = arith.divf %dv, %d : {e}"]
    x.lines.append(f"    %new_empty = tensor.empty() : {row_c}")
    x.generic("%new", [("%crow", row_c, ("r", "c")), ("%s", row_c, ("r", "c")), ("%mii", x.t(1, 1), ("0", "0"))],
              [("%new_empty", row_c, ("r", "c"))], ("parallel", "parallel"),
              [f"%cv: {e}", f"%sv: {e}", f"%d: {e}", f"%u: {e}"],
              [f"%dv = arith.subf %cv, %sv : {e}", *divide, f"linalg.yield {'%dv' if unit else '%q'} : {e}"])
    x.insert("%ys2", "%new", "%ys", mat_c, ("%i", "0"), (1, cols))
    x.lines += [f"    scf.yield %ys2 : {mat_c}", "  }"]
    result = "%y"
    if not left:
        x.transpose("%yt", "%y", rows, cols)
        result = "%yt"
    return "\n".join([f"func.func private @{name}(%a: {mat_a}, %b: {mat_b}) -> {mat_b} {{", *x.lines,
                      f"  return {result} : {mat_b}", "}"])


def _reflect(x: _Text, out: str, mat_name: str, v: str, tau: str, m: int, n: int) -> None:
    """`out` = `mat_name` (m x n) with columns c > %i reflected: C + v (-tau
    v^T C), in the order LAPACK's slarf (a gemv, then a ger) forms it."""
    e = x.element
    x.fill(f"{out}_w0", "%zero", 1, n)
    x.generic(f"{out}_w", [(v, x.t(m, 1), ("r", "0")), (mat_name, x.t(m, n), ("r", "c"))],
              [(f"{out}_w0", x.t(1, n), ("0", "c"))], ("reduction", "parallel"),
              [f"%vr: {e}", f"%qv: {e}", f"%acc: {e}"],
              [f"%p = arith.mulf %vr, %qv : {e}", f"%y = arith.addf %acc, %p : {e}", f"linalg.yield %y : {e}"])
    x.generic(out, [(v, x.t(m, 1), ("r", "0")), (f"{out}_w", x.t(1, n), ("0", "c")), (tau, x.t(1, 1), ("0", "0"))],
              [(mat_name, x.t(m, n), ("r", "c"))], ("parallel", "parallel"),
              [f"%vr: {e}", f"%wc: {e}", f"%tv: {e}", f"%qv: {e}"],
              [f"%c = linalg.index {x.index('c')} : index", "%right = arith.cmpi sgt, %c, %i : index",
               f"%mtau = arith.negf %tv : {e}", f"%tw = arith.mulf %mtau, %wc : {e}", f"%p = arith.mulf %vr, %tw : {e}",
               f"%upd = arith.addf %qv, %p : {e}", f"%y = arith.select %right, %upd, %qv : {e}",
               f"linalg.yield %y : {e}"])


def geqrf_function_text(name: str, m: int, n: int, element: str, batch: Sequence[int] = ()) -> str:
    """@name(a: batch x m x n) -> (R and the reflectors, the k = min(m, n)
    taus of each matrix)."""
    x, k, e = _Text(batch, element), min(m, n), element
    mat, col, one, taus = x.t(m, n), x.t(m, 1), x.t(1, 1), x.t(1, k)
    x.constants()
    x.lines += [f"  %steps = arith.constant {k} : index", f"  %last_row = arith.constant {m - 1} : index",
                f"  %taus_init = tensor.empty() : {taus}",
                f"  %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%q = %a, %ts = %taus_init) "
                f"-> ({mat}, {taus}) {{"]
    x.slice("%col", "%q", mat, ("0", "%i"), (m, 1))
    x.slice("%alpha", "%q", mat, ("%i", "%i"), (1, 1))
    x.fill("%x0", "%zero", 1, 1)
    x.generic("%xs", [("%col", col, ("r", "c"))], [("%x0", one, ("0", "c"))], ("reduction", "parallel"),
              [f"%v: {e}", f"%acc: {e}"],
              [f"%row = linalg.index {x.index('r')} : index", "%below = arith.cmpi sgt, %row, %i : index",
               f"%sq = arith.mulf %v, %v : {e}", f"%sum = arith.addf %acc, %sq : {e}",
               f"%y = arith.select %below, %sum, %acc : {e}", f"linalg.yield %y : {e}"])
    # Per matrix: tau (0 where nothing is reflected), the factors of v and
    # of the kept column below the diagonal, and the new diagonal.
    x.lines += ["    %bottom = arith.cmpi eq, %i, %last_row : index", f"    %scalars_empty = tensor.empty() : {one}"]
    x.generic("%scalars:4", [("%alpha", one, ("r", "c")), ("%xs", one, ("r", "c"))],
              [("%scalars_empty", one, ("r", "c"))] * 4, ("parallel", "parallel"),
              [f"%al: {e}", f"%x2: {e}", f"%u0: {e}", f"%u1: {e}", f"%u2: {e}", f"%u3: {e}"],
              [f"%nothing = arith.cmpf oeq, %x2, %zero : {e}", "%trivial = arith.ori %nothing, %bottom : i1",
               f"%a2 = arith.mulf %al, %al : {e}", f"%n2 = arith.addf %a2, %x2 : {e}", f"%norm = math.sqrt %n2 : {e}",
               f"%signed = math.copysign %norm, %al : {e}", f"%beta = arith.negf %signed : {e}",
               f"%bma = arith.subf %beta, %al : {e}", f"%tau0 = arith.divf %bma, %beta : {e}",
               f"%tau = arith.select %trivial, %zero, %tau0 : {e}", f"%amb = arith.subf %al, %beta : {e}",
               f"%scale = arith.divf %one, %amb : {e}", f"%vscale = arith.select %trivial, %zero, %scale : {e}",
               f"%kscale = arith.select %trivial, %one, %scale : {e}",
               f"%head = arith.select %trivial, %al, %beta : {e}",
               f"linalg.yield %tau, %vscale, %kscale, %head : {e}, {e}, {e}, {e}"])
    # v (1 at i, the scaled x below, 0 above) and column i's new values.
    x.lines.append(f"    %v_empty = tensor.empty() : {col}")
    x.generic("%vcol:2", [("%col", col, ("r", "c")), ("%scalars#1", one, ("0", "0")), ("%scalars#2", one, ("0", "0")),
                          ("%scalars#3", one, ("0", "0"))], [("%v_empty", col, ("r", "c"))] * 2,
              ("parallel", "parallel"), [f"%v: {e}", f"%vs: {e}", f"%ks: {e}", f"%hd: {e}", f"%u0: {e}", f"%u1: {e}"],
              [f"%row = linalg.index {x.index('r')} : index", "%below = arith.cmpi sgt, %row, %i : index",
               "%diag = arith.cmpi eq, %row, %i : index", f"%sv = arith.mulf %v, %vs : {e}",
               f"%v0 = arith.select %below, %sv, %zero : {e}", f"%vv = arith.select %diag, %one, %v0 : {e}",
               f"%sk = arith.mulf %v, %ks : {e}", f"%k0 = arith.select %below, %sk, %v : {e}",
               f"%kept = arith.select %diag, %hd, %k0 : {e}", f"linalg.yield %vv, %kept : {e}, {e}"])
    _reflect(x, "%q2", "%q", "%vcol#0", "%scalars#0", m, n)
    x.insert("%q3", "%vcol#1", "%q2", mat, ("0", "%i"), (m, 1))
    x.insert("%ts2", "%scalars#0", "%ts", taus, ("0", "%i"), (1, 1))
    x.lines += [f"    scf.yield %q3, %ts2 : {mat}, {taus}", "  }"]
    taus_out, taus_type = x.drop_unit("%taus_out", "%r#1", k, e)
    return "\n".join([f"func.func private @{name}(%a: {mat}) -> ({mat}, {taus_type}) {{", *x.lines,
                      f"  return %r#0, {taus_out} : {mat}, {taus_type}", "}"])


def orgqr_function_text(name: str, m: int, n: int, k: int, element: str, batch: Sequence[int] = ()) -> str:
    """@name(a: batch x m x n holding k reflectors below its diagonal,
    taus: batch x k) -> Q (batch x m x n), the product of the reflectors
    applied to the unit matrix's first n columns."""
    x, e = _Text(batch, element), element
    mat, col, one, taus = x.t(m, n), x.t(m, 1), x.t(1, 1), x.t(1, k)
    taus_in = f"tensor<{''.join(f'{s}x' for s in [*batch, k])}{e}>"
    x.constants()
    x.add_unit("%taus", "%taus_flat", k, e)
    x.lines += [f"  %steps = arith.constant {k} : index", f"  %last = arith.constant {k - 1} : index",
                f"  %kc = arith.constant {k} : index", f"  %unit_init = tensor.empty() : {mat}"]
    # Columns k.. are the unit matrix's.
    x.generic("%start", [("%a", mat, ("r", "c"))], [("%unit_init", mat, ("r", "c"))], ("parallel", "parallel"),
              [f"%v: {e}", f"%u: {e}"],
              [f"%row = linalg.index {x.index('r')} : index", f"%c = linalg.index {x.index('c')} : index",
               "%free = arith.cmpi sge, %c, %kc : index", "%diag = arith.cmpi eq, %row, %c : index",
               f"%unit = arith.select %diag, %one, %zero : {e}", f"%y = arith.select %free, %unit, %v : {e}",
               f"linalg.yield %y : {e}"], indent="  ")
    x.lines += [f"  %q = scf.for %t = %c0 to %steps step %c1 iter_args(%qs = %start) -> ({mat}) {{",
                "    %i = arith.subi %last, %t : index"]
    x.slice("%tau", "%taus", taus, ("0", "%i"), (1, 1))
    x.slice("%col", "%qs", mat, ("0", "%i"), (m, 1))
    x.lines.append(f"    %v_empty = tensor.empty() : {col}")
    x.generic("%vcol:2", [("%col", col, ("r", "c")), ("%tau", one, ("0", "0"))], [("%v_empty", col, ("r", "c"))] * 2,
              ("parallel", "parallel"), [f"%v: {e}", f"%tv: {e}", f"%u0: {e}", f"%u1: {e}"],
              [f"%row = linalg.index {x.index('r')} : index", "%below = arith.cmpi sgt, %row, %i : index",
               "%diag = arith.cmpi eq, %row, %i : index", f"%v0 = arith.select %below, %v, %zero : {e}",
               f"%vv = arith.select %diag, %one, %v0 : {e}", f"%mtau = arith.negf %tv : {e}",
               f"%sx = arith.mulf %v, %mtau : {e}", f"%n0 = arith.select %below, %sx, %zero : {e}",
               f"%one_minus = arith.subf %one, %tv : {e}", f"%new = arith.select %diag, %one_minus, %n0 : {e}",
               f"linalg.yield %vv, %new : {e}, {e}"])
    _reflect(x, "%q2", "%qs", "%vcol#0", "%tau", m, n)
    x.insert("%q3", "%vcol#1", "%q2", mat, ("0", "%i"), (m, 1))
    x.lines += [f"    scf.yield %q3 : {mat}", "  }"]
    return "\n".join([f"func.func private @{name}(%a: {mat}, %taus_flat: {taus_in}) -> {mat} {{", *x.lines,
                      f"  return %q : {mat}", "}"])
