# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The extension perfshap._perfshap, built by CMake (the project's own build) for pip.

pyproject.toml holds the metadata; this file only tells setuptools to run CMake for the one
extension, with the Python that runs pip, and to copy the module it builds (and the keywords'
declarations, _options.json) into the wheel.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build = Path(self.build_temp).resolve() / "cmake"
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
                               "-DPERFSHAP_BUILD_TESTS=OFF", "-DPERFSHAP_BUILD_BENCH=OFF",
                               f"-DPython_EXECUTABLE={sys.executable}"])
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_perfshap", "-j", jobs])
        built = next((build / "python" / "perfshap").glob("_perfshap*.so"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # The keywords' declarations, written by the build beside the module (perfshap_options).
        shutil.copyfile(build / "python" / "perfshap" / "_options.json", target.parent / "_options.json")


setup(ext_modules=[CMakeExtension("perfshap._perfshap")], cmdclass={"build_ext": CMakeBuild})
