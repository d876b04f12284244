"""The built wheel carries the rulesets and the message catalogs, and finds them when installed."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installed_in_a_fresh_venv_finds_its_rulesets(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(dist.glob("rummy_scorer-*.whl"))
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    # The fresh venv has only the wheel; its dependencies (pydantic) come from this test's
    # environment through PYTHONPATH, which does not bring the editable checkout along.
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(site.getsitepackages()))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import scorer.ruleset as r; print(r.rulesets_dir())"],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where
    listed = subprocess.run(
        [str(env_dir / "bin" / "rummy"), "rulesets", "--json"],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    ids = {r["id"] for r in json.loads(listed.stdout)}
    assert {"gin", "kalooki", "carousel", "rommi", "basic-rummy"} <= ids
    assert len(ids) == len(list((ROOT / "rulesets").glob("*.toml")))
    # The message catalogs travel in the wheel too: the installed command answers in Finnish.
    finnish = subprocess.run(
        [str(env_dir / "bin" / "rummy"), "--lang", "fi", "check", "--rules", "gin", "QH KH AH"],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert finnish.returncode == 1
    assert finnish.stdout == "ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)\n"
