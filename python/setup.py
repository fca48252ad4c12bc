"""Builds the package's native library (python/native, docs/python.md) with meson while pip
builds the package, and puts it inside the package as carom/libcarom_native.so.

The library is built from this repository's sources (the folder above this one): the engine,
the command line's scene loader (tools/) and python/native. It needs what `setup.sh` installs
(gcc, meson, ninja, libcjson-dev, libstb-dev). Set CAROM_NATIVE_LIBRARY at run time to use
another build of the library instead.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIBRARY = "libcarom_native.so"


def build_native(build_dir):
    if not (ROOT / "engine").is_dir() or not (ROOT / "meson.build").is_file():
        sys.exit(f"carom: {ROOT} is not a carom source tree: install the package from the "
                 "repository (pip install ./python), which builds the C library from it")
    if not (build_dir / "build.ninja").exists():
        subprocess.run(["meson", "setup", str(build_dir), str(ROOT), "--buildtype=release",
                        "-Dtests=false"], check=True)
    subprocess.run(["meson", "compile", "-C", str(build_dir), "carom_native"], check=True)
    return build_dir / "python" / LIBRARY


class BuildPyWithNative(build_py):
    """build_py, then the native library into the built package."""

    def run(self):
        super().run()
        build_dir = Path(os.environ.get("CAROM_MESON_BUILD_DIR", HERE / "build" / "native"))
        library = build_native(build_dir.resolve())
        target = Path(self.build_lib) / "carom" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(library, target)


class NativeDistribution(Distribution):
    """A wheel for this platform, not a pure-Python one: it carries a shared library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithNative}, distclass=NativeDistribution)
