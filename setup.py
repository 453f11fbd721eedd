"""Build the Cython core, one extension module a concept (src/asiapoker/_core/*.pyx); all
metadata lives in pyproject.toml."""

from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = Path("src/asiapoker/_core")

extensions = [
    Extension(
        f"asiapoker._core.{pyx.stem}",
        [str(pyx)],
        include_dirs=[numpy.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted(CORE.glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
