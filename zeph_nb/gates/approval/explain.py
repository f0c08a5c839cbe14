"""Why a call asks, in one plain sentence for the person who has to decide.

The policy's reasons are written for whoever tunes the configuration (``the command classifier asks: destructive:
rm -r/-f; matches confirm pattern 'rm '``) and stay that way in the audit log and under the card. The approval
card leads with what the call would *do* that made it ask (```rm -r`` deletes files and whole folders…``).

It reads the reason's items (``PolicyDecision.reasons``: one per gate's finding, as that gate wrote it), each from
its start, by the words the gates begin them with. Never by searching anywhere in the text: an item quotes the
model's command or path after the gate's own words, and a prompt-injected model would write a gate's phrase into
its command (``git -c "x=destructive: kubectl delete;" status; rm -rf ~`` once read as "deletes Kubernetes
resources"). A reason it does not know is shown as it is — never a made-up one.
``tests/gates/test_explain.py`` runs the real gates over one call of each kind and checks that every ask reads as
a sentence without configuration words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

__all__ = ["plain_reason"]

# What each destructive command does (keys: the classifier's words after "destructive: ", shell/rules.py).
DESTRUCTIVE = {
    "rm -r/-f": "`rm -r`/`rm -f` deletes files and whole folders without asking; nothing can bring them back",
    "shred": "`shred` overwrites files so they can never be recovered",
    "wipe": "`wipe` overwrites files so they can never be recovered",
    "srm": "`srm` overwrites files so they can never be recovered",
    "truncate": "`truncate` cuts files short, and what was cut is lost",
    "git push --force/--delete": "a forced push (or a deleted remote branch) rewrites history others may rely on",
    "git reset --hard": "`git reset --hard` throws away every uncommitted change",
    "git clean -f": "`git clean -f` deletes untracked files, which git cannot bring back",
    "git branch -D": "`git branch -D` deletes a branch even when its commits are merged nowhere else",
    "git checkout discarding changes": "it discards uncommitted changes to files",
    "git restore discarding changes": "it discards uncommitted changes to files",
    "chmod -R": "`chmod -R` changes the permissions of every file in a folder tree at once",
    "chown -R": "`chown -R` changes the owner of every file in a folder tree at once",
    "chgrp -R": "`chgrp -R` changes the group of every file in a folder tree at once",
    "pkill": "it kills processes by name, which may lose their unsaved work",
    "killall": "it kills processes by name, which may lose their unsaved work",
    "kill": "`kill -9` stops a process at once, without letting it save anything",
    "dd": "`dd` writes raw bytes and can overwrite a whole file or disk",
    "terraform destroy": "it destroys the infrastructure terraform manages",
    "kubectl delete": "it deletes Kubernetes resources",
    "docker prune": "it deletes unused containers, images or volumes, with their data",
    "crontab -r": "`crontab -r` deletes every scheduled job at once",
    "SQL DROP/TRUNCATE": "it runs SQL that drops or empties tables",
    "find -delete": "`find -delete` deletes every file it finds",
}

# What a command named by a confirm pattern does, when the pattern is just that command ("rm ", "truncate ").
COMMANDS = {
    "rm": "`rm` deletes files; they do not go to a trash can",
    "truncate": "`truncate` cuts files short, and what was cut is lost",
    "mv": "`mv` can overwrite the file it moves onto",
    "drop": "it runs SQL that drops tables or databases",
}

SYNTAX = "whose effect cannot be checked before it runs"


def _outside(m: re.Match[str]) -> str:
    count = m.string.count(", outside the allowed paths")
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"it {m.group(1)} {m.group(2)}{more}, outside the folders commands may use"


def _needs(m: re.Match[str], extras: Sequence[str]) -> str:
    text = " ".join(extras)
    gets = "reaches the network"
    if "install" in text:
        gets = "reaches the network and can install into the kernel's environment" if "network" in text else (
            "can install into the kernel's Python environment")  # fmt: skip
    return f"it {gets}, which commands cannot do unless you allow it"


def _confirm(m: re.Match[str]) -> str:
    pattern = m.group(1)
    word = pattern.strip().split(" ", 1)[0].lower()
    if word == "drop" or (pattern.endswith(" ") and word in COMMANDS):  # "drop table" is SQL whatever follows
        return COMMANDS[word]
    return f"your settings ask before any command containing `{pattern.strip()}`"


# (how a gate begins an item, what to say), each matched at an item's start. Every quantifier is bounded: an
# item carries the model's command or path, and an unbounded (\w+) before a literal backtracks quadratically on a
# 200 kB word, in the kernel's event loop. Checked in this order: what the command would do comes before how it
# is written, so `rm -rf $(ls)` leads with the deletion and `curl … | sh` with the code it runs.
# A tool that asks before every call says why in its own words (ToolDef.explain) when it has them.
_OWN_ASK = re.compile(r"(\w{1,64}) asks for confirmation of this call")
Said = Callable[[re.Match[str], str, Sequence[str], Sequence[str]], str]
PHRASES: list[tuple[re.Pattern[str], Said]] = [
    (
        re.compile(r"the model asked for sandbox=false"),
        lambda m, t, s, e: (
            "the model asked to run this outside the OS sandbox, where it can read, change and reach everything you can"
        ),
    ),
    (
        re.compile(r"destructive: (.{1,64})\Z"),
        lambda m, t, s, e: DESTRUCTIVE.get(m.group(1), f"`{m.group(1)}` destroys data"),
    ),
    (
        re.compile(r"pipes or redirects input into (\S{1,128}), which runs it as code"),
        lambda m, t, s, e: f"it feeds text into `{m.group(1)}`, which runs it as code nobody has read",
    ),
    (_OWN_ASK, lambda m, t, s, e: f"`{t}` asks before every call"),
    (
        re.compile(
            r"the command names paths outside [^:]{0,200}: (reads|writes|uses|deletes|changes|runs) (\S{1,4096})"
            r"(?: \([^)]{0,4096}\))?, outside the allowed paths"
        ),
        lambda m, t, s, e: _outside(m),
    ),
    (re.compile(r"a call that gets more than the sandbox's default"), lambda m, t, s, e: _needs(m, e)),
    (
        re.compile(r"\w{1,64} would reach (\S{1,512}) for the first time"),
        lambda m, t, s, e: (
            f"it connects to {m.group(1)}, a site this conversation has not used yet; read the whole "
            "address, since a query string can carry your data out"
        ),
    ),
    (
        re.compile(r"the search query looks like it carries a credential"),
        lambda m, t, s, e: "the search query looks like it contains a password or key, which would leave this machine",
    ),
    (
        re.compile(r"risky option (\S{1,64}?):? ([^;]{1,300})"),
        lambda m, t, s, e: f"`{m.group(1)}` {m.group(2).strip()}",
    ),
    (
        re.compile(r"(\S{1,64}) code that starts other programs\Z"),
        lambda m, t, s, e: f"the {m.group(1)} code starts other programs, which cannot be checked before they run",
    ),
    (re.compile(r"uses eval"), lambda m, t, s, e: f"`eval` runs text as a command, {SYNTAX}"),
    (
        re.compile(r"uses (.{1,64}?), whose output the classifier cannot see"),
        lambda m, t, s, e: f"it runs a command inside another ({m.group(1)}), {SYNTAX}",
    ),
    (
        re.compile(r"expands \$(\w{1,64}), a variable from the environment"),
        lambda m, t, s, e: f"it uses ${m.group(1)} from the environment, whose value is only known when it runs",
    ),
    (
        re.compile(
            r"uses a here-string|uses arithmetic expansion|the command contains a NUL byte"
            r"|commands nested too deeply|a here-document that expands"
        ),
        lambda m, t, s, e: f"it uses shell syntax {SYNTAX}",
    ),
    (re.compile(r"matches confirm pattern '((?:[^'\\]|\\.){0,512})'"), lambda m, t, s, e: _confirm(m)),
    (
        re.compile(r"could not parse the command|(?:asked by )?default for \w{1,64}: the command could not be parsed"),
        lambda m, t, s, e: "the command could not be parsed, so nothing can tell what it would do",
    ),
    (
        re.compile(r"asked by gates\.permissions\.(\w{1,64})\[\d+\]: ask \"(.{0,512})\""),
        lambda m, t, s, e: f'your settings ask before {m.group(1)} calls matching "{m.group(2)}"',
    ),
    (
        re.compile(r"(?:asked by )?default for (\w{1,64}): no rule matched"),
        lambda m, t, s, e: f"your settings have rules for {m.group(1)}, and none of them covers this call",
    ),
    (
        re.compile(r"asked by .{1,400}? does not cover (.{1,300}?) \(a rule covers"),
        lambda m, t, s, e: f"the rule that allows this command does not mention {m.group(1)}, which changes what runs",
    ),
    (
        re.compile(r"trust level (\w{1,32}): calls that may change files ask first"),
        lambda m, t, s, e: f"this session's trust level is {m.group(1)}, so calls that may change files ask first",
    ),
    (
        re.compile(r"trust level untrusted: (?:network calls ask|allow rules do not cover)"),
        lambda m, t, s, e: "this session is untrusted, so calls that change files or reach the network ask first",
    ),
    (
        re.compile(r"shell commands are NOT sandboxed"),
        lambda m, t, s, e: "commands cannot be sandboxed on this machine, so one that may change files asks first",
    ),
]


def plain_reason(
    tool: str, subjects: Sequence[str], reasons: Sequence[str], extras: Sequence[str] = (), explained: str = ""
) -> str:
    """One sentence, capitalised and ending in a full stop, saying why this call asks: for the first of
    ``PHRASES`` that begins one of ``reasons`` (the items of ``PolicyDecision.reasons``). The card shows every
    reason, in the rules' words, under it. ``explained`` is the tool's own word for a call it asks about
    (``ToolDef.explain``)."""
    for phrase, say in PHRASES:
        for item in reasons:
            m = phrase.match(item)
            if m is not None:
                sentence = explained if explained and phrase is _OWN_ASK else say(m, tool, subjects, extras)
                return sentence[:1].upper() + sentence[1:] + "."
    text = (reasons[0] if reasons else "").strip().rstrip(".")
    if len(text) > 300:  # one sentence on a card, however much of the model's command a reason carries
        text = text[:299] + "…"
    return (text[:1].upper() + text[1:] + ".") if text else "A rule asks for this call."
