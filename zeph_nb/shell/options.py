"""Options that change what a command runs or where it writes, as data: what an allow rule never covers by itself.

A person who writes ``allow "git *"`` means "let the agent use git", not "let it run any program git can be told to
run". The rows below name, for the commands people allow most, the options, subcommands and environment variables
that turn a harmless command into one that executes code, writes outside the working directory or acts as someone
else. The classifier reports each one found as a *rider*: the command asks (with no rule) and an allow rule covers
it only when the rule's pattern spells the option out (``allow "git -c color.ui=* *"``).

``GLOBAL_VALUES`` lists the global options that take a value, so the subcommand is found after them
(``git -C . reset --hard`` is ``reset``, ``kubectl -n prod delete`` is ``delete``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from wcmatch import fnmatch

__all__ = [
    "GLOBAL_VALUES",
    "RISKS",
    "RISKY_ENV",
    "Rider",
    "Risk",
    "env_riders",
    "family",
    "riders_of",
    "risky_env",
    "subcommand",
]

RUNS = "runs a program it names"
_RUN = "run|create|exec"  # docker's subcommands that start a container (also as `docker container run`)
WRITES = "writes files where it says"


@dataclass(frozen=True)
class Risk:
    """One risky spelling. ``option``: ``-c``, ``--output``, ``-O`` (a short option, alone or in a cluster), or a
    bare word (a subcommand or ``NAME=`` argument). ``after``: only after this subcommand ("" anywhere).
    ``value``: the option takes the next word as its value (shown as evidence on the card)."""

    option: str
    why: str
    after: str = ""  # "diff|log": only after one of these subcommands; "^": only before the subcommand (global)
    value: bool = False
    only_if: str = ""  # a glob the option's value must match (``git config`` keys); "" always


@dataclass(frozen=True)
class Rider:
    """A risky option found in one command: what it is, the words that show it, why it asks."""

    option: str
    evidence: tuple[str, ...]
    why: str

    def describe(self) -> str:
        return f"{' '.join(self.evidence)}: {self.why}"


# Global options that take a value, per command: the subcommand is the first operand after them.
GLOBAL_VALUES: dict[str, frozenset[str]] = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix",
                      "--list-cmds", "--attr-source"}),
    "docker": frozenset({"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert",
                         "--tlscert", "--tlskey"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--cluster", "--user", "-s", "--server", "--kubeconfig",
                          "--token", "--as", "--as-group", "--as-uid", "--request-timeout", "--certificate-authority",
                          "--client-certificate", "--client-key", "-v", "--v"}),
    "pip": frozenset({"--proxy", "--cert", "--client-cert", "--log", "--cache-dir", "--timeout", "--retries",
                      "--python", "--exists-action", "--trusted-host", "--use-feature", "--use-deprecated"}),
    "npm": frozenset({"-C", "--prefix", "--userconfig", "--globalconfig", "--registry", "--cache", "-w",
                      "--workspace", "--loglevel"}),
    "terraform": frozenset(),  # -chdir=DIR is one word
}  # fmt: skip

_GIT_KEYS = (
    "alias.*|core.pager|core.editor|core.fsmonitor|core.hookspath|core.sshcommand|core.askpass|core.gitproxy|"
    "core.worktree|diff.external|diff.*.command|diff.*.textconv|merge.*.driver|filter.*|sequence.editor|"
    "tar.*.command|init.templatedir|core.alternaterefscommand|trailer.*.command|trailer.*.cmd|imap.tunnel|"
    "credential.*|gpg.program|gpg.*.program|pager.*|uploadpack.*|include.path|includeif.*|url.*|protocol.*|"
    "remote.*.uploadpack|remote.*.receivepack|remote.*.proxy|http.proxy|sendemail.*|web.browser|browser.*|man.*|"
    "mergetool.*|difftool.*|interactive.difffilter|submodule.*.update|safe.directory"
)

# Options of `docker run` (and create, exec) that loosen the container's confinement.
_DOCKER_RUN = {
    "--privileged": "gives the container the whole machine",
    "--volume": "mounts a folder of this machine into the container",
    "--mount": "mounts a folder of this machine into the container",
    "--volumes-from": "mounts another container's folders",
    "--pid": "shares this machine's processes",
    "--network": "shares this machine's network",
    "--net": "shares this machine's network",
    "--ipc": "shares this machine's IPC",
    "--uts": "shares this machine's host name",
    "--cgroupns": "shares this machine's cgroups",
    "--userns": "turns off user namespaces",
    "--cap-add": "gives the container more privileges",
    "--device": "gives the container a device of this machine",
    "--security-opt": "changes the container's confinement",
}

RISKS: dict[str, tuple[Risk, ...]] = {
    "git": (
        Risk("-c", "sets any configuration for this call: a pager, editor, hook path, alias or fsmonitor runs a "
                   "program", after="^", value=True),
        Risk("--config-env", "sets configuration from the environment (pager, editor, aliases run programs)",
             after="^", value=True),
        Risk("--exec-path", "takes git's own programs from another folder", after="^"),
        Risk("--git-dir", "points git at another repository, whose configuration can run programs", after="^",
             value=True),
        Risk("--work-tree", "makes git read and write another folder as its work tree", after="^", value=True),
        Risk("-O", RUNS + " on the matching files", after="grep"),
        Risk("--open-files-in-pager", RUNS + " on the matching files", after="grep"),
        Risk("--output", WRITES),
        Risk("-o", WRITES, after="format-patch", value=True),
        Risk("--output-directory", WRITES, after="format-patch"),
        Risk("-o", WRITES, after="archive", value=True),
        Risk("--exec", RUNS, after="archive"),
        Risk("--upload-pack", RUNS), Risk("--receive-pack", RUNS), Risk("--exec", RUNS, after="push"),
        Risk("-u", RUNS, after="clone", value=True), Risk("-u", RUNS, after="fetch", value=True),
        Risk("--template", "copies hooks (programs) from a template folder", after="clone|init"),
        Risk("--smtp-server", RUNS, after="send-email"), Risk("--sendmail-cmd", RUNS, after="send-email"),
        Risk("--config", "sets configuration for the new repository (hooks, fsmonitor run programs)", after="clone"),
        Risk("-c", "sets configuration for the new repository (hooks, fsmonitor run programs)", after="clone",
             value=True),
        Risk("--separate-git-dir", WRITES, after="clone"),
        Risk("config", "changes a setting that runs a program or reaches another host", only_if=_GIT_KEYS),
        Risk("--global", "changes the configuration of every repository", after="config"),
        Risk("--system", "changes the configuration of every repository", after="config"),
        Risk("--edit", "opens an editor", after="config"), Risk("-e", "opens an editor", after="config"),
        Risk("foreach", "runs a command in every submodule", after="submodule"),
        Risk("run", "runs a command at every bisection step", after="bisect"),
        Risk("--exec", "runs a command after each commit", after="rebase"),
        Risk("-x", "runs a command after each commit", after="rebase", value=True),
        Risk("--extcmd", RUNS, after="difftool"), Risk("-x", RUNS, after="difftool", value=True),
        Risk("--tool", RUNS, after="difftool"), Risk("-t", RUNS, after="difftool", value=True),
        Risk("--tool", RUNS, after="mergetool"), Risk("-t", RUNS, after="mergetool", value=True),
        Risk("filter-branch", "runs the filters it is given over every commit"),
        Risk("filter-repo", "runs the callbacks it is given over every commit"),
        Risk("credential", "prints or stores credentials"),
        Risk("credential-store", "prints or stores credentials"),
    ),
    "rg": (
        Risk("--pre", RUNS + " on every file it searches"),
        Risk("--hostname-bin", RUNS),
    ),
    "find": (
        Risk("-delete", "deletes what it finds"),
        Risk("-fprint", WRITES), Risk("-fprint0", WRITES), Risk("-fprintf", WRITES), Risk("-fls", WRITES),
    ),
    "sed": (
        Risk("-i", "edits files in place"),
        Risk("--in-place", "edits files in place"),
    ),
    "awk": (
        Risk("-f", "runs a program file the classifier cannot read", value=True),
        Risk("--file", "runs a program file the classifier cannot read"),
        Risk("-l", "loads a compiled extension", value=True), Risk("--load", "loads a compiled extension"),
        Risk("-i", "includes another program file", value=True), Risk("--include", "includes another program file"),
        Risk("-E", "runs a program file the classifier cannot read", value=True),
    ),
    "python": (
        Risk("-i", "keeps an interactive prompt open (waits for input)"),
    ),
    "pip": (
        Risk("--target", WRITES, after="install"), Risk("-t", WRITES, after="install", value=True),
        Risk("--prefix", WRITES, after="install"), Risk("--root", WRITES, after="install"),
        Risk("--index-url", "installs from another package index", after="install"),
        Risk("-i", "installs from another package index", after="install", value=True),
        Risk("--extra-index-url", "installs from another package index", after="install"),
        Risk("--find-links", "installs from another place", after="install"),
        Risk("-f", "installs from another place", after="install", value=True),
        Risk("--trusted-host", "turns off TLS checks for a host"),
        Risk("--user", "installs into your home, where every Python you run looks", after="install"),
        Risk("--dest", WRITES, after="download"), Risk("-d", WRITES, after="download", value=True),
        Risk("set", "changes pip's configuration, which every later install reads", after="config"),
        Risk("edit", "opens an editor on pip's configuration", after="config"),
    ),
    "npm": (
        Risk("exec", "downloads and runs a package's program"), Risk("x", "downloads and runs a package's program"),
        Risk("--script-shell", "runs package scripts with the shell it names"),
        Risk("--userconfig", "reads configuration from the file it names", value=True),
        Risk("--globalconfig", "reads configuration from the file it names", value=True),
        Risk("-g", "installs into the global prefix, outside this project"),
        Risk("--global", "installs into the global prefix, outside this project"),
        Risk("--prefix", WRITES, value=True),
        Risk("--location", "installs into the global prefix, outside this project"),
        Risk("link", "links a package into the global prefix"),
        Risk("set", "changes npm's configuration, which every later command reads", after="config"),
        Risk("edit", "opens an editor on npm's configuration", after="config"),
    ),
    "npx": (Risk("npx", "downloads and runs a package's program"),),
    "make": (
        Risk("--eval", "adds make rules (which run commands) on the command line"),
        Risk("-E", "adds make rules (which run commands) on the command line", value=True),
        Risk("SHELL=", "runs every recipe with the program it names"),
        Risk(".SHELLFLAGS=", "changes how every recipe runs"),
        Risk("MAKEFLAGS=", "changes how every recipe runs"),
        Risk("MAKEFILES=", "reads more makefiles (which run commands)"),
    ),
    "pytest": (
        Risk("-p", "loads the plugin module it names", value=True),
        Risk("--basetemp", "empties and reuses the folder it names"),
        Risk("-o", "overrides configuration (plugins, options)", value=True),
        Risk("--override-ini", "overrides configuration (plugins, options)"),
        Risk("-c", "reads configuration from the file it names", value=True),
        Risk("--config-file", "reads configuration from the file it names"),
        Risk("--rootdir", "takes configuration and conftest.py from another folder"),
        Risk("--junitxml", WRITES), Risk("--junit-xml", WRITES), Risk("--report-log", WRITES),
        Risk("--debug", WRITES),
    ),
    "docker": (
        Risk("-H", "talks to another Docker daemon", after="^", value=True),
        Risk("--host", "talks to another Docker daemon", after="^"),
        Risk("--context", "talks to another Docker daemon", after="^"),
        Risk("--config", "reads another client configuration", after="^"),
        Risk("-v", "mounts a folder of this machine into the container", after=_RUN, value=True),
        *(Risk(option, why, after=_RUN) for option, why in _DOCKER_RUN.items()),
        Risk("exec", "runs a command in a container"),
        Risk("cp", "copies files between this machine and a container"),
    ),
    "kubectl": (
        Risk("exec", "runs a command in a cluster's container"), Risk("attach", "attaches to a running container"),
        Risk("cp", "copies files between this machine and a cluster"), Risk("debug", "starts a debugging container"),
        Risk("run", "starts a container in the cluster"), Risk("port-forward", "opens a port into the cluster"),
        Risk("proxy", "opens a proxy to the cluster's API"),
        Risk("--kubeconfig", "acts with other credentials"), Risk("--token", "acts with other credentials"),
        Risk("-s", "talks to another cluster", value=True), Risk("--server", "talks to another cluster"),
        Risk("--as", "acts as another user"), Risk("--as-group", "acts as another group"),
        Risk("--user", "acts with other credentials"), Risk("--client-key", "acts with other credentials"),
        Risk("--client-certificate", "acts with other credentials"),
        Risk("--certificate-authority", "trusts another certificate authority"),
        Risk("--insecure-skip-tls-verify", "turns off TLS checks"),
    ),
}  # fmt: skip
# Commands with the same options under another name.
ALIASES = {"gawk": "awk", "mawk": "awk", "nawk": "awk", "gsed": "sed", "pip3": "pip", "py.test": "pytest",
           "gmake": "make", "podman": "docker", "nerdctl": "docker", "pnpm": "npm"}  # fmt: skip

# Environment variables that change what a command runs (in front of it, through env, or exported first).
RISKY_ENV = (
    "GIT_*", "LD_*", "DYLD_*", "PYTHON*", "PERL5*", "PERLLIB", "RUBY*", "NODE_OPTIONS", "NODE_PATH", "NPM_CONFIG_*",
    "PIP_*", "UV_*", "PAGER", "*_PAGER", "MANPAGER", "EDITOR", "VISUAL", "*_EDITOR", "SHELL", "BASH_ENV", "ENV",
    "BASH_FUNC_*", "PATH", "IFS", "PS4", "PROMPT_COMMAND", "LESSOPEN", "LESSCLOSE", "*_ASKPASS", "SSH_*", "BROWSER",
    "HOME", "XDG_CONFIG_HOME", "DOCKER_*", "KUBECONFIG", "CC", "CXX", "LDSHARED", "MAKEFLAGS", "MAKEFILES",
    "CARGO_*", "RUSTC*", "CDPATH", "PYTEST_*", "RIPGREP_CONFIG_PATH", "npm_config_*", "GREP_OPTIONS",
    "RUSTFLAGS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH", "TERMINFO",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy",
    "SSL_CERT_*", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GCONV_PATH", "LOCPATH", "MALLOC_*", "GLIBC_TUNABLES",
)  # fmt: skip
_ENV_FLAGS = fnmatch.IGNORECASE | fnmatch.DOTMATCH


@functools.cache
def risky_env() -> fnmatch.WcMatcher[str]:
    """RISKY_ENV compiled, once: compiling the 70 patterns for every assignment cost 0.4 ms each (a line of x=1;
    took seconds). Not at import (~3 ms of every new Agent): the classifier's first analysis compiles it, with
    bashlex, before that line's budget starts."""
    return fnmatch.compile(list(RISKY_ENV), flags=_ENV_FLAGS & ~fnmatch.IGNORECASE)


def family(name: str) -> str:
    """The name the tables use: ``python3.11`` is ``python``, ``gawk`` is ``awk``."""
    if name.startswith(("python", "pypy")):
        return "python"
    if name.startswith("pip") and name[3:].replace(".", "").isdigit():
        return "pip"
    return ALIASES.get(name, name)


def env_riders(assignments: Sequence[str]) -> list[Rider]:
    """The ``NAME=value`` assignments among ``assignments`` that change what a command runs."""
    found = []
    for word in assignments:
        name = word.split("=", 1)[0]
        if risky_env().match(name):
            found.append(Rider(name, (word,), f"{name} in the environment changes what runs"))
    return found


def subcommand(name: str, args: Sequence[str]) -> tuple[int, str]:
    """The index (in ``args``) and word of the subcommand, after the global options; (-1, "") when none."""
    values = GLOBAL_VALUES.get(family(name), frozenset())
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg.startswith("-") and arg != "-":
            i += 2 if arg in values else 1
            continue
        return i, arg
    return (i, args[i]) if i < len(args) else (-1, "")


# Long options a command defines as they are, which only look like abbreviations of a risky one.
_NOT_ABBREVIATIONS = {"pytest": frozenset({"--co", "--col", "--conf", "--cont"})}


def _spelled(arg: str, option: str, *, abbreviations: bool = False) -> bool:
    """Whether ``arg`` is ``option``: exactly, as ``--opt=value``, as an abbreviation of a long option (git accepts
    ``--outp``), or as a short option alone, with its value attached, or after other flags in a cluster
    (``-iO'cmd'``, ``-qx'cmd'``). A ``NAME=`` option (make's variables) matches every assignment form make reads:
    ``SHELL=``, ``SHELL:=``, ``SHELL ::= x``, ``SHELL += x``, ``SHELL ?= x``."""
    if option.endswith("="):
        return re.match(rf"^\s*{re.escape(option[:-1])}\s*(?::{{1,3}}|[+?!])?=", arg) is not None
    if option.startswith("--"):
        head = arg.split("=", 1)[0]
        abbreviated = abbreviations and len(head) >= 4 and head.startswith("--") and option.startswith(head)
        return head == option or abbreviated
    if option.startswith("-") and len(option) == 2:
        if not arg.startswith("-") or arg.startswith("--") or len(arg) < 2:
            return False
        return re.match(rf"^-[A-Za-z]*{re.escape(option[1])}", arg) is not None
    if option.startswith("-"):  # find's -delete, -fprint: one dash, whole word
        return arg == option
    return arg == option  # a subcommand or argument word


def riders_of(name: str, args: Sequence[str]) -> list[Rider]:
    """Every risky option of one command (``name`` without its path, lower case; ``args`` quotes removed)."""
    risks = RISKS.get(family(name))
    if not risks:
        return []
    if family(name) == "npx":
        return [Rider("npx", ("npx",), risks[0].why)]
    index, sub = subcommand(name, args)
    if family(name) == "docker" and sub in ("container", "compose", "image", "buildx") and index >= 0:
        inner, sub = subcommand(name, args[index + 1 :])  # docker container run: the verb is the next word
        index = index + 1 + inner if inner >= 0 else index
    before = list(args[: max(index, 0)]) if index >= 0 else list(args)
    after = list(args[index + 1 :]) if index >= 0 else []
    found: list[Rider] = []
    for risk in risks:
        if risk.after == "^":
            words = before
        elif risk.after:
            if sub not in risk.after.split("|"):
                continue
            words = after
        else:
            words = list(args)
        # Built at the first `config` met, not at each one: the operands after each word, and the last --add.
        operands_from: list[list[str]] | None = None
        last_add = -1
        for i, arg in enumerate(words):
            if arg == "--" and risk.option.startswith("-"):
                break
            if arg in _NOT_ABBREVIATIONS.get(family(name), ()):
                continue
            if not _spelled(arg, risk.option, abbreviations=True):
                continue
            if risk.only_if:
                if operands_from is None:
                    operands_from = _first_operands(words, _CONFIG_VALUES)
                    last_add = max((j for j, w in enumerate(words) if w in ("--add", "--replace-all")), default=-1)
                operands = operands_from[i + 1]
                if operands[:1] and operands[0] in ("set", "unset", "get", "edit", "list"):  # git 2.46's verbs
                    operands = operands[1:]
                key = operands[0].lower() if operands else ""
                if not _matcher(risk.only_if).match(key):
                    continue
                writes = len(operands) >= 2 or last_add > i
                if not writes:
                    continue
                found.append(Rider(risk.option, (arg, *operands[:2]), risk.why))
                break
            evidence = (arg, words[i + 1]) if risk.value and arg == risk.option and i + 1 < len(words) else (arg,)
            if family(name) == "pytest" and risk.option == "-p" and evidence[-1].removeprefix("-p").startswith("no:"):
                continue  # -p no:cacheprovider turns a plugin off
            found.append(Rider(risk.option, evidence, risk.why))
            break
    return found


_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"})


def _first_operands(words: Sequence[str], values: frozenset[str]) -> list[list[str]]:
    """For each position in ``words``, the first three words from there on that are not options nor an option's
    value (all a `config` needs: verb, key, value). Built from the end in one pass, where reading them again after
    each `config` made `git config -f config -f config …` quadratic."""
    table: list[list[str]] = [[] for _ in range(len(words) + 2)]
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        if word in values:
            table[i] = table[i + 2]
        elif not word.startswith("-"):
            table[i] = [word, *table[i + 1][:2]]
        else:
            table[i] = table[i + 1]
    return table


@functools.lru_cache(maxsize=64)
def _matcher(pattern: str) -> fnmatch.WcMatcher[str]:
    """A ``config`` key glob, compiled once (it names some 40 keys)."""
    return fnmatch.compile(pattern, flags=_ENV_FLAGS | fnmatch.SPLIT)
