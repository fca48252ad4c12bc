"""Shared fixtures: the repository's scenes and the `carom` command line to compare with.

The package under test is whichever `import carom` finds: the one pip installed (.ci/run), or
python/ itself with CAROM_NATIVE_LIBRARY pointing at a meson build's library (docs/python.md).
The command line is $CAROM_CLI, else build/tools/carom of the repository."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENES = ROOT / "scenes"


@pytest.fixture(scope="session")
def carom_cli():
    path = pathlib.Path(os.environ.get("CAROM_CLI", ROOT / "build" / "tools" / "carom"))
    if not path.exists():
        pytest.skip(f"the carom command line is not built at {path} (set CAROM_CLI)")

    def run(*arguments):
        result = subprocess.run([str(path), *map(str, arguments)], capture_output=True,
                                text=True)
        return result.returncode, result.stdout, result.stderr

    return run


@pytest.fixture
def ball_drop():
    return SCENES / "ball_drop.json"
