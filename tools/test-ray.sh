#!/usr/bin/env bash
# python -m glsnap.ray_tiles on a local Ray cluster: `ray start --head` and a second node process on
# loopback, the driver with --address, a small pyramid of the bundled example (49 tiles, an actor
# killed after its second block), checked byte for byte against the single-machine `glsnap tiles`.
# A venv of its own (.build/ray-venv: Ray's wheel is about 70 MB, downloaded once from PyPI), the
# Python package installed into it (pip builds libglsnap.so in release mode). About 1.5 minutes on
# two shared cores, so not part of tools/test.sh.
# usage: tools/test-ray.sh [PYTEST ARGS...]   (GLSNAP_CLI: the CLI to compare with; default .build/debug/glsnap)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/ray-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check pytest numpy "ray==${RAY_VERSION:-2.60.0}"
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./python
export GLSNAP_CLI="${GLSNAP_CLI:-$PWD/.build/debug/glsnap}"
[ -x "$GLSNAP_CLI" ] || { echo "test-ray: no glsnap CLI at $GLSNAP_CLI (swift build first)" >&2; exit 1; }
exec "$venv/bin/python" -m pytest -q -s python/tests/test_ray_tiles.py "$@"
