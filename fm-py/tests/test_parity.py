"""Parity: the same seed and commands give the same event log from Python as in Rust."""

from __future__ import annotations

import json

import pytest

import fm

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a(h: int, data: bytes) -> int:
    for b in data:
        h ^= b
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def canonical(e: fm.Event) -> bytes:
    text = json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8") + b"\n"


def python_playthrough(scenario: str, seed: int, steps: int) -> tuple[int, int, int, fm.Match]:
    m = fm.Match(scenario, seed=seed)
    h = FNV_OFFSET
    for e in m.opening_events:
        h = fnv1a(h, canonical(e))
    k = 0
    while k < steps and not m.is_over:
        cmds = m.legal_commands()
        for e in m.apply(cmds[(k * 7) % len(cmds)]):
            h = fnv1a(h, canonical(e))
        k += 1
    return h, k, m.hash, m


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_event_log_hash_matches_rust(seed: int) -> None:
    for name in fm.scenarios("fm"):
        py_hash, py_steps, py_state, m = python_playthrough(name, seed, 600)
        rust_hash, rust_steps, rust_state = fm.rust_playthrough_hash(name, seed, 600)
        assert (py_hash, py_steps, py_state) == (rust_hash, rust_steps, rust_state), name
        assert py_steps > 50
        # The log's command dicts, fed back as plain dicts, replay the same game.
        replay = fm.Match(name, seed=seed)
        for entry in m.log:
            replay.apply(entry.command.to_dict())
        assert replay.save() == m.save()
