"""Gymnasium ids of the built-in scenarios: ``fm/SystemDemo-v0``,
``fm/MeuseArgonne-v0``, ``fm/VimyRidge-v0``, ``fm/Suez1916-v0``,
``fm/HuzzahEncounter-v0``, ``fm/HuzzahFirefight-v0``, each :class:`fm.env.FmGymEnv`
of that scenario (keyword arguments given to ``gymnasium.make`` go to it).

They are registered when :mod:`fm.env` is imported, when :mod:`fm` is imported after
Gymnasium, and, with Gymnasium 0.28-0.29, through the ``gymnasium.envs`` entry point
without any import. Gymnasium 1.0 dropped entry-point plugins; there the id with its
module, ``gymnasium.make("fm:fm/SystemDemo-v0")``, imports fm, which registers them.

>>> import gymnasium, fm.env
>>> e = gymnasium.make("fm/SystemDemo-v0")
>>> e.unwrapped.scenario
'system-demo'
"""

from __future__ import annotations

from typing import Dict

import fm

NAMESPACE = "fm"

# The systems whose scenarios have an observation (fm.env plays them).
_SYSTEMS = ("fm", "huzzah")


def env_id(scenario: str) -> str:
    """``"meuse-argonne"`` → ``"fm/MeuseArgonne-v0"``."""
    return f"{NAMESPACE}/" + "".join(p[:1].upper() + p[1:] for p in scenario.split("-")) + "-v0"


def env_ids() -> Dict[str, str]:
    """Every built-in scenario's id, to its scenario name."""
    return {env_id(s): s for system in _SYSTEMS for s in fm.scenarios(system)}


def register_envs() -> None:
    """Registers :func:`env_ids` with Gymnasium (those not registered yet)."""
    import gymnasium

    for id_, scenario in env_ids().items():
        if id_ not in gymnasium.registry:
            gymnasium.register(id=id_, entry_point="fm.env:FmGymEnv", kwargs={"scenario": scenario})
