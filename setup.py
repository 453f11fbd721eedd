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
from setuptools.command.build_ext import build_ext

CORE = Path("src/asiapoker/_core")
SHARED = "asiapoker._core._cython"

# the optimisation flags each compiler family takes (compiler differences in the C itself are
# in src/asiapoker/_core/sysdep.h): GCC and clang, and MSVC
FLAGS = {"unix": ["-O3", "-funroll-loops"], "mingw32": ["-O3", "-funroll-loops"],
         "msvc": ["/O2"]}
SHARED_FLAGS = {"unix": ["-O2"], "mingw32": ["-O2"], "msvc": ["/O2"]}


class BuildExt(build_ext):
    """build_ext with the flags of the compiler it runs (``FLAGS``)."""

    def build_extensions(self):
        kind = self.compiler.compiler_type
        for ext in self.extensions:
            ext.extra_compile_args = list((SHARED_FLAGS if ext.name == SHARED else FLAGS)
                                          .get(kind, []))
        super().build_extensions()


options = dict(
    include_dirs=[numpy.get_include(), str(CORE)],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
)
extensions = [Extension(SHARED, sources=[str(CORE / "_cython.c")])]
extensions += [Extension(f"asiapoker._core.{pyx.stem}", [str(pyx)], **options)
               for pyx in sorted(CORE.glob("*.pyx"))]

setup(
    cmdclass={"build_ext": BuildExt},
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
