"""The console's version diff (server/console/diff.js) in Node: minimal on 300 random edits
(as many unchanged lines as a longest common subsequence), both texts kept, a 6,000-line file
with a few edits diffed in linear time and memory (the n×m table took 0.9 s and 105 MiB in the
page), and wholly different texts shown as replaced past the search's bound."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHECK = Path(__file__).parent / "console" / "diff_check.mjs"


def test_the_version_diff_is_minimal_and_linear() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (.ci/run installs it)")
    done = subprocess.run([node, str(CHECK)], capture_output=True, text=True, timeout=60)

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok 6001") and "replaced 6000" in done.stdout
