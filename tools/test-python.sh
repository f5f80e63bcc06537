#!/usr/bin/env bash
# The Python package and the C ABI: a venv under .build/python-venv, `pip install ./python` (which
# builds libglsnap.so in release mode, reusing .build/release), then pytest on python/tests.
# usage: tools/test-python.sh [PYTEST ARGS...]   (GLSNAP_CLI: the CLI to compare with; default .build/debug/glsnap)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check pytest numpy
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./python
export GLSNAP_CLI="${GLSNAP_CLI:-$PWD/.build/debug/glsnap}"
set +e
"$venv/bin/python" -m pytest -q python/tests "$@"
rc=$?
set -e
# pytest exits 5 when it collected no tests: that is a failure here, not a pass.
if [ "$rc" -eq 5 ]; then echo "python tests: none collected" >&2; exit 1; fi
exit "$rc"
