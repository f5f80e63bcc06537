"""The C ABI from C: install it with tools/install-c.sh, build Tests/C/glsnap_abi_test.c with
pkg-config, run its checks and render a map with it."""
import os
import shutil
import subprocess

import pytest

from conftest import EXAMPLE, ROOT, read_png


def test_c_program(tmp_path):
    cc = shutil.which("cc") or shutil.which("clang")
    if cc is None or shutil.which("pkg-config") is None:
        pytest.skip("no C compiler or pkg-config")
    prefix = tmp_path / "prefix"
    subprocess.run([os.path.join(ROOT, "tools/install-c.sh"), str(prefix)], check=True, capture_output=True)
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib/pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "glsnap"], env=env, check=True, capture_output=True,
                           text=True).stdout.split()
    exe = tmp_path / "glsnap_abi_test"
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-o", str(exe), os.path.join(ROOT, "Tests/C/glsnap_abi_test.c"),
                    *flags, "-lm"], check=True)
    checks = subprocess.run([str(exe)], capture_output=True, text=True)
    assert checks.returncode == 0, checks.stdout + checks.stderr
    out = tmp_path / "map.png"
    subprocess.run([str(exe), EXAMPLE, "-87.65", "41.87", "14", str(out)], check=True)
    image = read_png(out.read_bytes())
    assert image.shape == (512, 512, 4)
    assert len({tuple(p) for p in image[::32, ::32].reshape(-1, 4)}) > 5  # a map, not a blank image
