"""Build the example: ``python setup.py build_ext --inplace`` (needs asiapoker, Cython and a C
compiler).  ``asiapoker/capi.pxd`` and the core's ``.pxd`` files ship with the package; Cython
finds them on the include path given below."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

import asiapoker

setup(
    name="asiapoker-cython-example",
    ext_modules=cythonize(
        [Extension("fast_sim", ["fast_sim.pyx"], extra_compile_args=["-O2"])],
        include_path=[str(Path(asiapoker.__file__).resolve().parents[1])],
        language_level=3,
    ),
)
