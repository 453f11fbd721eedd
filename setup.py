"""Build the Cython core, one extension module a concept (src/asiapoker/_core/*.pyx); all
metadata lives in pyproject.toml.

Cython's run-time support (memoryviews and the rest) is compiled once, into one shared module,
``asiapoker._core._cython``, that the others import (Cython >= 3.1), and the modules compile in
parallel: every module would otherwise carry, and compile, its own copy of it.
"""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = Path("src/asiapoker/_core")
SHARED = "asiapoker._core._cython"

options = dict(
    include_dirs=[numpy.get_include()],
    extra_compile_args=["-O3", "-funroll-loops"],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
)
extensions = [Extension(SHARED, sources=[str(CORE / "_cython.c")], extra_compile_args=["-O2"])]
extensions += [Extension(f"asiapoker._core.{pyx.stem}", [str(pyx)], **options)
               for pyx in sorted(CORE.glob("*.pyx"))]

setup(
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
    ext_modules=cythonize(
        extensions,
        include_path=["src"],
        shared_utility_qualified_name=SHARED,
        nthreads=os.cpu_count() or 1,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
