"""The documents' Python examples, run so that none drifts from the module: every
```python block of README.md and of the guides that hold Python examples
(docs/python.md, docs/learning.md, docs/huzzah.md). A block of `>>>` lines runs as a
doctest, its printed output compared; any other block runs as a script, with the
assertions it makes. A block that imports an optional library (Stable-Baselines3,
sb3-contrib, SuperSuit, OpenSpiel) is skipped without it, except under
scripts/test_py.sh, which installs them and sets FM_TEST_NEEDS_ALL=1.
"""

from __future__ import annotations

import doctest
import importlib
import os
import pathlib
import re
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "docs/python.md", "docs/learning.md", "docs/huzzah.md"]
# Libraries an example may need that `import fm` does not.
OPTIONAL = ("sb3_contrib", "stable_baselines3", "supersuit", "pyspiel", "open_spiel")


def _blocks() -> list[tuple[str, int, str]]:
    """(document, line, code) of every ```python block of the documents."""
    found: list[tuple[str, int, str]] = []
    for name in DOCUMENTS:
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M):
            found.append((name, text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


BLOCKS = _blocks()


def _need_imports(code: str) -> None:
    for module in re.findall(r"^\s*(?:import|from)\s+([A-Za-z_][\w]*)", code, re.M):
        if module not in OPTIONAL:
            continue
        if os.environ.get("FM_TEST_NEEDS_ALL") == "1":
            importlib.import_module(module)
        else:
            pytest.importorskip(module, reason=f"{module} is not installed")


def test_every_document_has_its_examples() -> None:
    """A renamed fence or a moved section cannot silently drop the examples."""
    if not (ROOT / "README.md").is_file():
        pytest.skip("not run from a clone of the repository")
    per_doc = {name: sum(1 for d, _, _ in BLOCKS if d == name) for name in DOCUMENTS}
    assert all(n >= 1 for n in per_doc.values()), per_doc
    doctests = [code for _, _, code in BLOCKS if code.lstrip().startswith(">>>")]
    assert len(doctests) >= 2, "the README's and docs/python.md's doctests"


@pytest.mark.parametrize(
    "doc,line,code", BLOCKS, ids=[f"{d}:{line}" for d, line, _ in BLOCKS]
)
def test_example(doc: str, line: int, code: str, monkeypatch: pytest.MonkeyPatch,
                 tmp_path: pathlib.Path) -> None:
    _need_imports(code)
    # Examples that write files (a log, a picture) write them here.
    monkeypatch.chdir(tmp_path)
    if code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, {}, doc, str(ROOT / doc), line)
        runner = doctest.DocTestRunner(optionflags=doctest.IGNORE_EXCEPTION_DETAIL)
        runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.failed == 0 and result.attempted >= 3, result
    else:
        scope: dict[str, Any] = {"__name__": "__doc_example__"}
        exec(compile(code, f"{doc}:{line}", "exec"), scope)
