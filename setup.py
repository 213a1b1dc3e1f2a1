"""The compiled part of the package, built by ``pip install`` with the system's C compiler:

- the double-dummy search's inner loop (C; docs/analysis.md, "The compiled search"); on
  x86-64 the count of a bit set is the processor's ``popcnt`` (every x86-64 processor since
  2008 has it), not a library call, and with gcc 12 or later the search is compiled a second
  time for x86-64-v3 processors (AVX2, BMI1/2, ...; ``#pragma GCC target`` in the C file,
  not a flag here), that build picked when the module loads on a processor that runs it: the
  wheel still runs on any x86-64; without the compiler's loop vectorizer (the search's loops
  run over four or five suits or seats, too short for vector code to pay: bridge deals 0-14,
  ``bench/ab_search.py``, median per-position ratio 0.97-0.99 in three runs);
- the rules engine and the rules (``cards``, ``engine``, ``rules``) compiled from their own
  Python source by mypyc (PyPI's mypy, a build requirement in pyproject.toml; docs/analysis.md,
  "The compiled engine"). mypyc type-checks what it compiles, with ``--strict-equality``: a
  phase or refusal code misspelt (``rules.base.Phase``, ``engine.refusals``) fails the build.

In an editable install the compiled modules are imported instead of the ``.py`` beside them:
after an edit to one, ``pip install -e .`` again (``scripts/run-tests`` does).
Everything else is in pyproject.toml."""

import platform
from glob import glob

from mypyc.build import mypycify
from setuptools import Extension, setup

X86_64 = platform.machine().lower() in ("x86_64", "amd64")
INTERPRETED = ("__init__.py",)
COMPILED = ["host/tricktable/cards.py",
            *sorted(p for p in glob("host/tricktable/engine/*.py") + glob("host/tricktable/rules/*.py")
                    if not p.endswith(INTERPRETED))]

setup(ext_modules=[
    Extension("tricktable.analysis._search", ["host/tricktable/analysis/_search.c"],
              extra_compile_args=["-O3", "-fno-tree-vectorize", *(["-mpopcnt"] if X86_64 else [])]),
    *mypycify(["--strict-equality", *COMPILED], opt_level="3", debug_level="0",
              group_name="tricktable"),
])
