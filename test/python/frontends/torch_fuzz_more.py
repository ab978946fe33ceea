#!/usr/bin/env python3
"""More random PyTorch programs, on top of torch_fuzz.py's driver (same CLI):

    python test/python/frontends/torch_fuzz_more.py --seeds 0-299 [--native] [--keep DIR]
    python test/python/frontends/torch_fuzz_more.py --show SEED

`_MoreGen` adds to torch_fuzz's `_Gen`: in-place ops on a clone (add_,
mul_, clamp_, masked_fill_, index_fill_), torch.where with broadcasting
(masks from iota comparisons or inputs), torch.gather / scatter /
scatter_reduce along every dim (negative ones too), cumsum / cummax /
cummin / logcumsumexp along negative dims, F.pad in reflect, replicate and
circular modes, repeat_interleave (int and tensor repeats), tril / triu
with offsets, Tensor.unfold and F.unfold, and boolean masks with
masked_fill / index_put. About a quarter of the programs run in bf16 or
f16 (`model.to(dtype)`, inputs cast).

Avoided: in-place ops on inputs (the eager run would change the inputs the
import then sees), cummax indices except of inputs (a tie flips under an
ulp), scatter (not scatter_reduce) with duplicate indices (unspecified
winner), scatter_add along a negative dim (torch_fuzz's known `negscatter`
bug), masks of computed values closer than MARGIN to their threshold.
16-bit programs are compared with meshsdy.sim.tolerance's 16-bit
tolerance, as torch_fuzz does (docs/frontends.md: 16-bit results may be an
ulp off).
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_fuzz as base  # noqa: E402
from torch_fuzz import _Gen, _Rejected, _shape_text  # noqa: E402


class _MoreGen(_Gen):
    def _mask(self, shape: list[int]) -> str:
        """A boolean mask broadcasting to `shape`: iota comparisons or an
        input compared with a threshold."""
        r = len(shape)
        if self.rng.random() < 0.5 or not r:
            inputs = [x for x in self.input_names if self.env[x].is_floating_point()
                      and base._broadcasts_to(list(self.env[x].shape), shape)]
            if inputs:
                x = self.rng.choice(inputs)
                return f"({x} > {self.rng.choice([0.0, 0.3, -0.5])})"
        if not r:
            raise _Rejected("mask of a scalar")
        d0, d1 = self.rng.randrange(r), self.rng.randrange(r)
        v0 = [1] * r
        v0[d0] = shape[d0]
        v1 = [1] * r
        v1[d1] = shape[d1]
        k = self.rng.randint(-2, 2)
        cmp = self.rng.choice([">", ">=", "<", "==", "!="])
        return (f"(torch.arange({shape[d0]}).reshape{_shape_text(v0)} {cmp} "
                f"torch.arange({shape[d1]}).reshape{_shape_text(v1)} + {k})")

    def op_inplace(self, a: str) -> str:
        x = self.value(a)
        b = self.other(a)
        if list(self.torch.broadcast_shapes(x.shape, self.value(b).shape)) != list(x.shape):
            b = "0.5"
        forms = [f"{{v}}.mul_(0.5).add_({b})", "{v}.clamp_(-1.0, 1.0)", "{v}.tanh_()",
                 f"{{v}}.sub_({b}).abs_()", f"{{v}}.addcmul_({b}, {b}, value=0.5)"]
        if x.dim():
            forms += [f"{{v}}.masked_fill_({self._mask(list(x.shape))}, -2.0)",
                      f"{{v}}.index_fill_({self.dim(a)}, torch.tensor([0]), 1.5)"]
        return self.emit(f"{a}.clone()", "inplace", then=self.rng.choice(forms) + "; _ = None")

    def op_where(self, a: str) -> str:
        x = self.value(a)
        shape = list(x.shape)
        if self.rng.random() < 0.5 and shape:
            # The mask broadcast over fewer dims, the other operand too.
            sub = shape[self.rng.randint(0, len(shape) - 1):]
            mask = self._mask(sub)
        else:
            mask = self._mask(shape)
        other = self.rng.choice(["0.0", "-1.0", self.other(a)])
        if self.rng.random() < 0.5:
            return self.emit(f"torch.where({mask}, {a}, {other})", "where")
        return self.emit(f"torch.where({mask}, {other}, {a})", "where")

    def op_gather2(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("gather of a scalar")
        d = self.rng.randrange(x.dim())
        dt = d - x.dim() if self.rng.random() < 0.5 else d
        shape = list(x.shape)
        ishape = [self.rng.randint(1, s) for s in shape]
        ishape[d] = self.rng.randint(1, 4)
        n = math.prod(ishape)
        if n > 96:
            raise _Rejected("a large constant index")
        kind = self.rng.choice(["gather", "scatter_value", "scatter_src", "amax", "sum", "mean", "prod"])
        if kind == "gather":
            index = [self.rng.randrange(shape[d]) for _ in range(n)]
            return self.emit(f"torch.gather({a}, {dt}, torch.tensor({index}).reshape{_shape_text(ishape)})",
                             "gather2")
        index = [self.rng.randrange(shape[d]) for _ in range(n)]
        idx = f"torch.tensor({index}).reshape{_shape_text(ishape)}"
        if kind == "scatter_value":
            return self.emit(f"{a}.scatter({dt}, {idx}, -0.75)", "scatter")
        src = self.param(ishape, 0.5)
        if kind == "scatter_src":
            # unique positions along d within each slice: one index per slice
            ishape[d] = 1
            n = math.prod(ishape)
            index = [self.rng.randrange(shape[d]) for _ in range(n)]
            src = self.param(ishape, 0.5)
            return self.emit(f"{a}.scatter({dt}, torch.tensor({index}).reshape{_shape_text(ishape)}, {src})",
                             "scatter")
        include = self.rng.choice([True, False])
        return self.emit(f"{a}.scatter_reduce({dt}, {idx}, {src}, reduce={kind!r}, include_self={include})",
                         "scatter_reduce")

    def op_cum(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("cum of a scalar")
        d = self.rng.randrange(x.dim()) - x.dim()
        forms = [f"torch.cumsum({a}, dim={d})", f"torch.cummax({a}, dim={d}).values",
                 f"torch.cummin({a}, dim={d})[0]", f"torch.logcumsumexp({a}, dim={d})",
                 f"{a}.cumsum({d}).flip({d})"]
        if a in self.input_names:
            forms.append(f"torch.cummax({a}, dim={d}).indices")
        return self.emit(self.rng.choice(forms), "cum")

    def op_pad2(self, a: str) -> str:
        x = self.value(a)
        mode = self.rng.choice(["reflect", "replicate", "circular"])
        if x.dim() < 2:
            raise _Rejected("pad mode of rank < 2")
        k = self.rng.randint(1, min(3, x.dim() - 1))  # padded trailing dims
        pads = []
        for s in reversed(x.shape[-k:]):
            top = s - 1 if mode == "reflect" else (s if mode == "circular" else 3)
            top = min(top, 3)
            pads += [self.rng.randint(0, top), self.rng.randint(0, top)]
        if not any(pads):
            raise _Rejected("no padding")
        return self.emit(f"F.pad({a}, {tuple(pads)}, mode={mode!r})", "pad2")

    def op_repeat_interleave(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("scalar")
        d = self.dim(a)
        n = x.shape[d]
        if self.rng.random() < 0.5:
            return self.emit(f"{a}.repeat_interleave({self.rng.randint(1, 3)}, dim={d})", "repeat_interleave")
        reps = [self.rng.randint(0, 3) for _ in range(n)]
        if not sum(reps):
            reps[0] = 1
        return self.emit(f"torch.repeat_interleave({a}, torch.tensor({reps}), dim={d}, output_size={sum(reps)})",
                         "repeat_interleave")

    def op_tri(self, a: str) -> str:
        if self.value(a).dim() < 2:
            raise _Rejected("tril of rank < 2")
        k = self.rng.randint(-3, 3)
        return self.emit(self.rng.choice([f"torch.tril({a}, {k})", f"torch.triu({a}, diagonal={k})",
                                          f"{a}.tril({k}) - {a}.triu({k + 1}) * 0.5"]), "tri")

    def op_unfold(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 4 and self.rng.random() < 0.4:
            k = self.rng.choice([s for s in (1, 2, 3) if s <= min(x.shape[2:])])
            stride = self.rng.choice((1, 2))
            pad = self.rng.choice((0, 1))
            return self.emit(f"F.unfold({a}, {k}, padding={pad}, stride={stride})", "F.unfold")
        if x.dim() == 0 or x.dim() > 3:
            raise _Rejected("unfold rank")
        d = self.dim(a)
        n = x.shape[d]
        size = self.rng.randint(1, n)
        step = self.rng.randint(1, 3)
        return self.emit(f"{a}.unfold({d}, {size}, {step})", "unfold")

    def op_bool_mask(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("scalar")
        mask = self._mask(list(x.shape))
        forms = [f"{a}.masked_fill({mask}, 0.25)", f"{a}.masked_fill(~{mask}, float('-inf')).amax(-1)",
                 f"{a} * {mask}", f"{a}.masked_fill({mask} & (torch.arange({x.shape[-1]}) > 0), -1.0)"]
        if self.rng.random() < 0.3:
            return self.emit(f"{a}.clone()", "index_put_bool",
                             then=f"{{v}}[{mask}.expand({_shape_text(list(x.shape))})] = 0.5")
        expr = self.rng.choice(forms)
        value = self.eval(expr)
        if value.is_floating_point() and not self.torch.isfinite(value).all():
            raise _Rejected("a row masked whole")
        return self.emit(expr, "bool_mask")

    OPS = {**_Gen.OPS, "inplace": (op_inplace, 5), "where": (op_where, 5), "gather2": (op_gather2, 5),
           "cum": (op_cum, 4), "pad2": (op_pad2, 4), "repeat_interleave": (op_repeat_interleave, 3),
           "tri": (op_tri, 3), "unfold": (op_unfold, 3), "bool_mask": (op_bool_mask, 4)}

    def program(self) -> base.Program:
        dtype = self.rng.choice([None, None, None, "bfloat16", "float16"])
        prog = super().program()
        if dtype:
            src = prog.source
            src = src.replace("        super().__init__()\n", "        super().__init__()\n", 1)
            # Cast the parameters after __init__ and the float inputs.
            src = src.replace("\n    def forward(", f"\n        self.to(torch.{dtype})\n\n    def forward(", 1)
            src = src.replace("def example_inputs() -> tuple:\n    return (",
                              f"def example_inputs() -> tuple:\n    return tuple(t.to(torch.{dtype}) "
                              f"if t.is_floating_point() else t for t in (", 1)
            src = src.replace("\n    )\n\n\nMESH", "\n    ))\n\n\nMESH", 1)
            # iotas of the 16-bit type (an f32 one would promote the model back).
            src = src.replace("dtype=torch.float32)", f"dtype=torch.{dtype})")
            src = src.replace(".float()", f".to(torch.{dtype})")
            src = re.sub(r"torch\.linspace\(([^)]*)\)", rf"torch.linspace(\1, dtype=torch.{dtype})", src)
            src = src.replace('"""torch_fuzz program', f'"""torch_fuzz_more program ({dtype})', 1)
            prog = base.Program(prog.seed, src, prog.ops + [dtype])
        return prog


base._Gen = _MoreGen  # program() draws from this
base.HERE = Path(__file__).resolve()  # the driver's children run this file

if __name__ == "__main__":
    sys.exit(base.main())
