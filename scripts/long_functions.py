#!/usr/bin/env python3
"""Lists the functions longer than N lines in lib/ and python/.

    scripts/long_functions.py            # functions over 90 lines
    scripts/long_functions.py -n 150     # over 150 (what the test enforces)

C++ (.cpp, .h) is measured by brace matching: comments and literals are
blanked out first, then every `{` at namespace or class scope whose head
ends like a function signature (`)`, then qualifiers, a trailing return
type or a constructor's initializer list) opens a function, which runs to
its matching `}`. Lambdas and local classes inside a function count toward
it, as they are read with it. Python is measured with `ast`: each `def`
(methods and nested functions included) from its `def` line to its last.
A function's length is its line count from the first line of its head to
its closing line, both included.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRS = ("lib", "python")
CXX_SUFFIXES = (".cpp", ".h")


@dataclass(frozen=True)
class Function:
    path: str
    line: int
    name: str
    length: int


# ---------------------------------------------------------------- C++


def _blank_cxx(text: str) -> str:
    """`text` with comments, string and char literals replaced by spaces
    (newlines kept), so braces and parentheses inside them do not count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A ' between digits is a digit separator (1'000), not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        elif c == "#" and (i == 0 or text[i - 1] == "\n" or
                           text[text.rfind("\n", 0, i) + 1:i].strip() == ""):
            # Preprocessor lines (continued with a backslash) hold no code
            # that opens a scope.
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


_CONTROL = re.compile(r"\b(if|for|while|switch|catch|return|sizeof|decltype)\s*$")
_SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$")
_EXTERN = re.compile(r'\bextern\s*"\s*"\s*$')
# What may follow the parameter list of a function definition.
_TAIL = re.compile(
    r"\)\s*((const|override|final|noexcept|volatile|mutable|&|&&)\s*)*"
    r"(->\s*[\w:<>,\s*&]+)?\s*$")


def _matching_open(code: str, close: int) -> int:
    """The index of the `(` that the `)` at `close` closes, or -1."""
    depth = 0
    for i in range(close, -1, -1):
        if code[i] == ")":
            depth += 1
        elif code[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _strip_initializers(head: str) -> str:
    """A constructor head without its `: member(init), ...` list."""
    # The list starts at a single `:` after the parameter list's `)`.
    depth = 0
    for i, c in enumerate(head):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif (c == ":" and depth == 0 and head[i - 1:i] != ":" and
              head[i + 1:i + 2] != ":" and head[:i].rstrip().endswith(")")):
            return head[:i]
    return head


def _is_member_init(head: str) -> bool:
    """Whether a `{` after `head` brace-initializes a member in a
    constructor's initializer list (`S() : x{1}`)."""
    head = head.strip()
    return (_strip_initializers(head) != head and
            re.search(r"[\w>]\s*$", head) is not None)


def _function_name(head: str) -> str | None:
    """The name of the function `head` (the text before a `{`) defines, or
    None when the `{` opens something else."""
    head = _strip_initializers(head.strip())
    # The `)` closing the parameter list starts the tail (qualifiers, a
    # trailing return type).
    tail = _TAIL.search(head)
    if not tail:
        return None
    open_ = _matching_open(head, tail.start())
    if open_ <= 0:
        return None
    before = head[:open_]
    if _CONTROL.search(before) or before.rstrip().endswith("]"):
        return None  # a control statement or a lambda
    m = re.search(r"((?:[A-Za-z_]\w*\s*::\s*)*operator\s*(?:\(\)|[^\s(]+)|"
                  r"~?[A-Za-z_]\w*(?:\s*::\s*~?[A-Za-z_]\w*)*)"
                  r"\s*(<[^()]*>)?\s*$", before)
    if not m:
        return None
    name = re.sub(r"\s+", "", m.group(1))
    if name in {"if", "for", "while", "switch", "catch", "return"}:
        return None
    return name


def cxx_functions(path: Path, text: str) -> list[Function]:
    code = _blank_cxx(text)
    line_of = [0] * (len(code) + 1)
    line = 1
    for i, c in enumerate(code):
        line_of[i] = line
        if c == "\n":
            line += 1
    line_of[len(code)] = line

    found: list[Function] = []
    # Kinds of the open scopes: "scope" (namespace, class, extern "C") keeps
    # looking for functions inside; "function" and "other" do not.
    stack: list[tuple[str, int, str, int]] = []
    head_start = 0
    for i, c in enumerate(code):
        if c in ";}":
            if c == "}" and stack:
                kind, start_line, name, _ = stack.pop()
                if kind == "function":
                    found.append(Function(str(path), start_line, name,
                                          line_of[i] - start_line + 1))
                if kind == "member-init":
                    continue  # the constructor's head goes on
            head_start = i + 1
        elif c == "{":
            inside_function = any(k != "scope" for k, *_ in stack)
            head = code[head_start:i]
            kind, name = "other", ""
            if not inside_function:
                if _SCOPE.search(head) or _EXTERN.search(head):
                    kind = "scope"
                elif _is_member_init(head):
                    # `S() : x{1}, y{2} {`: x's braces are part of S's head.
                    stack.append(("member-init", 0, "", i))
                    continue
                elif (fname := _function_name(head)) is not None:
                    kind, name = "function", fname
            first = head_start + (len(head) - len(head.lstrip()))
            stack.append((kind, line_of[first], name, i))
            head_start = i + 1
    return found


# ---------------------------------------------------------------- Python


def python_functions(path: Path, text: str) -> list[Function]:
    found = []
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(Function(str(path), node.lineno, node.name,
                                  node.end_lineno - node.lineno + 1))
    return found


# ---------------------------------------------------------------- driver


def all_functions(root: Path = ROOT) -> list[Function]:
    found = []
    for d in DIRS:
        for path in sorted((root / d).rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(root)
            if path.suffix in CXX_SUFFIXES:
                found += cxx_functions(rel, path.read_text())
            elif path.suffix == ".py":
                found += python_functions(rel, path.read_text())
    return found


def long_functions(limit: int, root: Path = ROOT) -> list[Function]:
    """Functions in lib/ and python/ over `limit` lines, longest first."""
    return sorted((f for f in all_functions(root) if f.length > limit),
                  key=lambda f: (-f.length, f.path, f.line))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--lines", type=int, default=90,
                        help="list functions longer than this (default 90)")
    args = parser.parse_args(argv)
    for f in long_functions(args.lines):
        print(f"{f.length:5d}  {f.path}:{f.line}  {f.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
