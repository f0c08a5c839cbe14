"""Issue 40's attack in a real kernel (nbclient): a DenyAll agent, with bash calls that run unasked in the OS sandbox,
plants modules named like the optional dependencies that installed code imports lazily — and IPython's own
``storemagic``, which it imports from the notebook folder at every kernel start. Then everything that used to load
them runs: the web tool's HTML parsing, pandas, a ``%%zeph`` run, a fresh kernel in the same folder. No plant may
run; the person's own module still imports."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import nbclient
import nbformat
import pytest

# Each a module name some installed code in this environment tries to import when absent (measured with a
# meta-path logger over a kernel start, a %%zeph run, pandas, matplotlib and the web tool).
PLANTS = ["storemagic", "html5lib", "lxml", "tabulate", "bottleneck", "numexpr", "chardet", "cchardet", "linkify_it",
          "orjson", "msgpack", "regex", "colorama"]  # fmt: skip

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (the OS sandbox)")


def plant_command(name: str) -> str:
    # The plant records that it ran, in the folder, from the kernel's process (outside every sandbox).
    return f"echo \"open('PWNED-{name}', 'w').write('ran in the kernel')\" > {name}.py"


FIRST_KERNEL = [
    "%load_ext zeph_nb",
    "import zeph_nb\n"
    f"planter = zeph_nb.ScriptedProvider([[{', '.join(repr({'tool': 'bash', 'params': {'command': plant_command(n)}}) for n in PLANTS)}], 'planted'])\n"  # noqa: E501
    "agent = zeph_nb.Agent(provider=planter, approver=zeph_nb.DenyAll())\n"
    "result = await agent.run('plant')\n"
    "print(sorted({c.status for c in result.tool_calls}), len(result.tool_calls))",
    # The web tool parsing HTML (bs4 looks for lxml and html5lib), pandas (tabulate, bottleneck, numexpr, …).
    "from zeph_nb.tools.web.executor import html_to_markdown\nprint(html_to_markdown('<p>hello</p>').strip())\n"
    "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\n"
    "try:\n    df.to_markdown()\n    print('to_markdown: ok')\n"
    "except ImportError as e:\n    print('to_markdown:', type(e).__name__)\n"
    "print(df.a.sum())",
    "model = zeph_nb.ScriptedProvider([[{'tool': 'bash', 'params': {'command': 'ls'}}], 'looked'])",
    "%%zeph --provider model --approve deny\nlook around",
    "run = await _\nprint(run.stop_reason)",
    "import mymodule\nprint('mine', mymodule.VALUE)",
    "try:\n    import html5lib\nexcept ImportError as e:\n    print('cell:', e)",
    "%zeph status",
]
FRESH_KERNEL = [
    "%load_ext zeph_nb",
    "import pandas as pd\nfrom zeph_nb.tools.web.executor import html_to_markdown\n"
    "print(html_to_markdown('<b>x</b>').strip())\n"
    "try:\n    pd.DataFrame({'a': [1]}).to_markdown()\nexcept ImportError:\n    pass",
    "import mymodule\nprint('mine', mymodule.VALUE)",
]


def run_notebook(cells: list[str], folder: Path) -> list[str]:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3").execute(cwd=str(folder))
    return ["".join(o.get("text", "") or o.get("evalue", "") for o in cell.outputs) for cell in notebook.cells]


def test_nothing_the_agent_planted_runs_in_the_kernel(isolated_env: Path) -> None:
    folder = Path.cwd()
    (folder / "mymodule.py").write_text("VALUE = 42\n")  # the person's own module
    out = run_notebook(FIRST_KERNEL, folder)
    assert out[1].strip() == f"['ok'] {len(PLANTS)}", out[1]  # every plant was written, unasked
    assert all((folder / f"{name}.py").is_file() for name in PLANTS)
    # pandas' to_markdown needs tabulate: where it is installed (the docs' tools bring it) the installed one is used,
    # never the agent's tabulate.py; where it is not, the import fails as if the plant were absent.
    tabulate = "ok" if importlib.util.find_spec("tabulate") is not None else "ImportError"
    assert "hello" in out[2] and f"to_markdown: {tabulate}" in out[2] and "3" in out[2], out[2]
    assert out[5].strip() == "completed", out[5]
    assert out[6].strip() == "mine 42"
    assert "cell: zeph-nb refused to import html5lib" in out[7] and "%zeph trust" in out[7], out[7]
    assert "refused html5lib from" in out[8] and "agent-written:" in out[8], out[8]
    fresh = run_notebook(FRESH_KERNEL, folder)
    assert fresh[2].strip() == "mine 42", fresh
    ran = sorted(p.name for p in folder.glob("PWNED-*"))
    assert ran == [], f"planted modules ran in the kernel: {ran}"
