"""Builds glsnap's C ABI (the SwiftPM product GLSnapC) in release mode and ships it in the package
as glsnap/libglsnap.so. The Swift sources are the repository this folder sits in (or
$GLSNAP_SOURCE_DIR); an existing .build/release is reused, so a second install only links."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def source_root() -> str:
    root = os.environ.get("GLSNAP_SOURCE_DIR") or os.path.dirname(HERE)
    if not os.path.exists(os.path.join(root, "Package.swift")):
        raise SystemExit(f"glsnap: no Package.swift in {root}; install from the glsnap repository "
                         "(pip install ./python) or set GLSNAP_SOURCE_DIR to it")
    return root


class BuildWithSwift(build_py):
    def run(self):
        root = source_root()
        swift = shutil.which("swift")
        if swift is None:
            raise SystemExit("glsnap: the Swift toolchain is needed to build libglsnap.so (swift not on PATH)")
        subprocess.run([swift, "build", "-c", "release", "--product", "GLSnapC"], cwd=root, check=True)
        built = os.path.join(root, ".build", "release", "libGLSnapC.so")
        super().run()
        target = os.path.join(self.build_lib, "glsnap")
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(built, os.path.join(target, "libglsnap.so"))


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for this platform."""
    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithSwift}, distclass=BinaryDistribution)
