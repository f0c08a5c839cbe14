"""The public surface: a pinned __all__, lazy attributes, and an import that stays cheap."""

from __future__ import annotations

import json
import subprocess
import sys

import zeph_nb


def test_all_is_the_exports_the_faces_and_the_hooks() -> None:
    # One dict says what is public (zeph_nb._EXPORTS) and one set which modules are its faces; __all__ follows.
    expected = {*zeph_nb._EXPORTS, *zeph_nb._FACES, "__version__", "load_ipython_extension"}
    assert sorted(zeph_nb.__all__) == sorted(expected)
    assert (
        len(zeph_nb._EXPORTS) <= 26
    )  # about twenty names a user meets (and @zeph_nb.tool); the rest is reached through its module
    assert not set(zeph_nb._EXPORTS) & set(zeph_nb._MOVED)


def test_a_name_that_moved_still_works_and_says_where_it_lives_now() -> None:
    import warnings

    from zeph_nb.gates.approval import ApprovalDecision
    from zeph_nb.tools import ToolDef

    for name, (module, new) in zeph_nb._MOVED.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(zeph_nb, name)
        assert value is getattr(__import__(module, fromlist=[new]), new), name
        assert [w.category for w in caught] == [DeprecationWarning] and module in str(caught[0].message), name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert zeph_nb.Decision is ApprovalDecision and zeph_nb.ToolDef is ToolDef  # type: ignore[attr-defined]


def test_every_public_name_resolves() -> None:
    for name in zeph_nb.__all__:
        assert getattr(zeph_nb, name) is not None, name
    assert callable(zeph_nb.safety.resolve_sandboxed)


def test_import_is_cheap() -> None:
    # `%load_ext zeph_nb` must not pay for pydantic (nor, later, anthropic, pandas or duckdb).
    heavy = ["pydantic", "wcmatch", "anthropic", "pandas", "duckdb", "IPython", "ipywidgets"]
    code = (
        f"import sys, json, zeph_nb\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r})))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(result.stdout)
    assert loaded == []


def test_unknown_attribute() -> None:
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = zeph_nb.Nope  # type: ignore[attr-defined]


def test_the_inbox_module_that_moved_still_imports_and_warns() -> None:
    import importlib
    import sys
    import warnings

    from zeph_nb.gates.approval.inbox import Inbox

    sys.modules.pop("zeph_nb.gates.inbox", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = importlib.import_module("zeph_nb.gates.inbox")
    assert old.Inbox is Inbox
    assert any(w.category is DeprecationWarning and "zeph_nb.gates.approval.inbox" in str(w.message) for w in caught)
