"""fm-py's PEP 517 build backend: maturin's, refusing to start without cargo.

maturin's own backend, when ``cargo`` is not on PATH, adds the package ``puccinialin``
to the build requirements and silently downloads a whole Rust toolchain into a cache
directory before compiling (unless ``MATURIN_NO_INSTALL_RUST`` is set). A source build
of fm-py must not fetch a toolchain behind the user's back: this wrapper sets
``MATURIN_NO_INSTALL_RUST`` and fails at the first hook, before anything is downloaded,
with a message saying what a source build needs. Every hook is otherwise maturin's.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any, Mapping

# maturin reads it at each hook: never install Rust (puccinialin).
os.environ["MATURIN_NO_INSTALL_RUST"] = "1"

import maturin  # noqa: E402

NEEDS = """
fm-py: cannot build from source: `cargo` (Rust) is not on PATH.

A source build of fm-py compiles its Rust code: it needs Rust 1.85 or later with
cargo on PATH (https://rustup.rs, or the system's packages) and a C linker (cc), and
takes several minutes (a release build of about 80 crates; `pip install -v ./fm-py`
shows cargo's progress). No toolchain is downloaded for you. Or install a built wheel:
`pip install fm_py-*.whl` (scripts/test_py.sh writes one to target/wheels-py/).
"""

Config = Mapping[str, Any] | None


def _require_cargo() -> None:
    if shutil.which("cargo") is None:
        sys.stderr.write(NEEDS)
        sys.stderr.flush()
        raise SystemExit(1)


def get_requires_for_build_wheel(config_settings: Config = None) -> list[str]:
    _require_cargo()
    return list(maturin.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings: Config = None) -> list[str]:
    _require_cargo()
    return list(maturin.get_requires_for_build_editable(config_settings))


def get_requires_for_build_sdist(config_settings: Config = None) -> list[str]:
    _require_cargo()
    return list(maturin.get_requires_for_build_sdist(config_settings))


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Config = None) -> str:
    _require_cargo()
    return str(maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: Config = None) -> str:
    _require_cargo()
    return str(maturin.prepare_metadata_for_build_editable(metadata_directory, config_settings))


def build_wheel(
    wheel_directory: str, config_settings: Config = None, metadata_directory: str | None = None
) -> str:
    _require_cargo()
    return str(maturin.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(
    wheel_directory: str, config_settings: Config = None, metadata_directory: str | None = None
) -> str:
    _require_cargo()
    return str(maturin.build_editable(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: Config = None) -> str:
    _require_cargo()
    return str(maturin.build_sdist(sdist_directory, config_settings))
