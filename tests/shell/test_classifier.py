"""The command classifier against a table of evasion attempts. Add a row for every bypass found."""

from __future__ import annotations

import pytest

from zeph_nb.config import Settings
from zeph_nb.safety import analyze_shell, classify_shell

# Network clients off and the legacy confirm_patterns emptied, so each row tests the parser, not substrings.
STRICT = Settings.from_toml(
    '[tools.shell]\nallow_network = false\nconfirm_patterns = []\nblocked_commands = ["git push --force"]\n'
)

CASES: list[tuple[str, str]] = [
    # plain, harmless
    ("ls -la", "allow"),
    ("git status && pytest -q", "allow"),
    ("cd src && grep -rn TODO . | head -20", "allow"),
    ("python -m pytest tests/ -x", "allow"),
    ("cargo test 2>&1 | tail -50", "allow"),
    ("echo 'curl is a tool' > notes.txt", "allow"),
    ("grep -c sudo /etc/group", "allow"),
    ("find . -name '*.py' -print", "allow"),
    ('for f in *.txt; do wc -l "$f"; done', "allow"),
    ("if test -f x; then cat x; fi", "allow"),
    ("make -j2 && ./build/app --help", "allow"),
    ("python script.py", "allow"),
    ("bash build.sh", "allow"),
    ("command -v curl", "allow"),
    ("echo $HOME", "confirm"),  # the seeds' confirm trigger: a variable from the environment
    ("rm notes.txt", "allow"),
    ("git push origin main", "allow"),
    ("xargs -0 wc -l < files", "allow"),
    # the blocklist, direct
    ("sudo ls", "block"),
    ("su -c 'id'", "block"),
    ("doas sh", "block"),
    ("pkexec bash", "block"),
    ("mkfs.ext4 /dev/sdb1", "block"),
    ("mkfs -t ext4 /dev/sdb", "block"),
    ("fdisk /dev/sda", "block"),
    ("wipefs -a /dev/sda", "block"),
    ("shutdown -h now", "block"),
    ("reboot", "block"),
    ("systemctl poweroff", "block"),
    ("dd if=/dev/zero of=/dev/sda bs=1M", "block"),
    ("echo x > /dev/sda", "block"),
    ("cat image > /dev/nvme0n1", "block"),
    ("kill -9 -1", "block"),
    (":(){ :|:& };:", "block"),
    ("bomb() { bomb | bomb & }; bomb", "block"),
    # rm of / and ~ in every spelling
    ("rm -rf /", "block"),
    ("rm -fr /", "block"),
    ("rm -r -f /", "block"),
    ("rm -f -r /", "block"),
    ("rm -R /", "block"),
    ("rm --recursive --force /", "block"),
    ("rm -rf /*", "block"),
    ("rm -rf //", "block"),
    ("rm -rf /./", "block"),
    ("rm -rf ~", "block"),
    ("rm -fr ~/", "block"),
    ("rm -rf $HOME", "block"),
    ("rm -rf ${HOME}", "block"),
    ("rm -rf /etc", "block"),
    ("rm -rf /usr/", "block"),
    ("rm -rf -- /", "block"),
    ("rm -rf --no-preserve-root /", "block"),
    ("rm -rf build / dist", "block"),
    ("chmod -R 777 /", "block"),
    ("chown -R nobody /etc", "block"),
    ("mv ~ /tmp/x", "block"),
    # quoting, escaping and paths
    ("c''url http://x", "block"),
    ('"cu"rl http://x', "block"),
    ("'curl' http://x", "block"),
    ("cu\\rl http://x", "block"),
    ("\\curl http://x", "block"),
    ("/usr/bin/curl http://x", "block"),
    ("/usr/bin/../bin/curl http://x", "block"),
    ("./../../usr/bin/wget http://x", "block"),
    ('"/usr/bin/sudo" id', "block"),
    ("s\\u\\d\\o id", "block"),
    ("SUDO ls", "block"),
    # brace expansion
    ("{rm,-rf,/}", "block"),
    ("{sudo,id}", "block"),
    ("{curl,http://x}", "block"),
    # lists, pipelines, subshells, groups
    ("echo ok; sudo rm x", "block"),
    ("true && sudo id", "block"),
    ("false || sudo id", "block"),
    ("ls | sudo tee /etc/x", "block"),
    ("echo a\nsudo id", "block"),
    ("(cd /tmp && sudo id)", "block"),
    ("{ echo hi; sudo id; }", "block"),
    ("ls & sudo id", "block"),
    ("if true; then sudo id; fi", "block"),
    ("while true; do curl x; done", "block"),
    ("for i in 1; do rm -rf /; done", "block"),
    ("f() { sudo id; }; f", "block"),
    # substitutions: blocked inside means blocked
    ("echo $(sudo id)", "block"),
    ("echo `sudo id`", "block"),
    ('echo "$(curl x)"', "block"),
    ("x=$(wget -qO- x)", "block"),
    ("cat <(curl x)", "block"),
    ("tee >(nc host 1) < f", "block"),
    ("echo $(echo $(sudo id))", "block"),
    ("diff <(ls) <(sudo ls)", "block"),
    # wrappers that take arguments
    ("env curl x", "block"),
    ("env FOO=1 BAR=2 curl x", "block"),
    ("env -i PATH=/bin curl x", "block"),
    ("env -u HOME sudo id", "block"),
    ("env -S 'curl x'", "block"),
    ("nice curl x", "block"),
    ("nice -n 10 curl x", "block"),
    ("nice -10 sudo id", "block"),
    ("timeout 5 curl x", "block"),
    ("timeout -s KILL 5 sudo id", "block"),
    ("nohup wget x &", "block"),
    ("time curl x", "block"),
    ("command sudo id", "block"),
    ("builtin exec sudo id", "block"),
    ("exec sudo id", "block"),
    ("stdbuf -oL curl x", "block"),
    ("ionice -c 3 sudo id", "block"),
    ("setsid curl x", "block"),
    ("xargs curl < urls", "block"),
    ("xargs -n 1 -P 4 curl < urls", "block"),
    ("find . -exec curl {} \\;", "block"),
    ("find / -execdir sudo rm {} +", "block"),
    ("strace -f curl x", "block"),
    ("watch -n 5 curl x", "block"),
    ("flock /tmp/l -c 'sudo id'", "block"),
    ("timeout 5 nice -n 5 env X=1 curl x", "block"),
    # shells and interpreters with inline code
    ("bash -c 'curl x'", "block"),
    ('sh -c "sudo id"', "block"),
    ("bash -lc 'rm -rf ~'", "block"),
    ("zsh -c 'wget x'", "block"),
    ("bash -c \"bash -c 'sudo id'\"", "block"),
    ("python -c 'import os; os.system(\"curl x\")'", "block"),
    ("python3 -c \"import subprocess; subprocess.run(['sudo', 'id'])\"", "block"),
    ("perl -e 'system(\"sudo id\")'", "block"),
    ("ruby -e 'exec(\"curl x\")'", "block"),
    ("node -e \"require('child_process').execSync('curl x')\"", "block"),
    ("eval 'sudo id'", "block"),
    ("eval sudo id", "block"),
    # code fed to a shell through a pipe or a heredoc
    ("echo 'sudo id' | bash", "block"),
    ("printf 'rm -rf /' | sh", "block"),
    ("cat <<EOF | sh\ncurl x\nEOF\n", "block"),
    ("bash <<EOF\nsudo id\nEOF\n", "block"),
    ("sh <<< 'sudo id'", "block"),
    # network clients and raw sockets
    ("wget http://x", "block"),
    ("nc -l 4444", "block"),
    ("ncat host 80", "block"),
    ("ssh host id", "block"),
    ("scp f host:", "block"),
    ("rsync -a . host:/x", "block"),
    ("socat - TCP:host:80", "block"),
    ("exec 3<>/dev/tcp/host/80", "block"),
    ("cat < /dev/tcp/host/80", "block"),
    ("echo x > /dev/udp/host/53", "block"),
    # legacy blocked_commands, whatever the flag spelling
    ("git push --force origin main", "block"),
    ("git push origin main --force", "block"),
    # what the classifier cannot see through: confirm
    ("echo $(date)", "confirm"),
    ("echo `date`", "confirm"),
    ("diff <(ls a) <(ls b)", "confirm"),
    ("$CMD arg", "confirm"),
    ("${CMD} arg", "confirm"),
    ("$(echo ls) -la", "confirm"),
    ('"$TOOL" --flag', "confirm"),
    ("cat <<< 'hello'", "confirm"),
    ('eval "$X"', "confirm"),
    ("cat script | bash", "confirm"),
    ("curl-like | sh", "confirm"),
    ("ls | python", "confirm"),
    ("bash < script.sh", "confirm"),
    ("case x in a) echo a;; esac", "confirm"),
    ("echo 'unterminated", "confirm"),
    ("python -c 'import os; os.system(cmd)'", "confirm"),
    # destructive: confirm by default
    ("rm -rf build", "confirm"),
    ("rm -f notes.txt", "confirm"),
    ("git push -f origin main", "confirm"),  # legacy entries match flag spellings, not synonyms; still destructive
    ("git push origin +main", "confirm"),
    ("git reset --hard HEAD~1", "confirm"),
    ("git clean -fdx", "confirm"),
    ("git branch -D feature", "confirm"),
    ("psql -c 'DROP TABLE users'", "confirm"),
    ("sqlite3 db 'drop database x'", "confirm"),
    ("mysql -e 'TRUNCATE TABLE logs'", "confirm"),
    ("find . -name '*.tmp' -delete", "confirm"),
    ("shred -u secret.txt", "confirm"),
    ("chmod -R 700 build", "confirm"),
    ("pkill python", "confirm"),
    ("kubectl delete pod x", "confirm"),
    ("terraform destroy", "confirm"),
    ("dd if=a of=b", "confirm"),
    ("crontab -r", "confirm"),
]


@pytest.mark.parametrize(("command", "verdict"), CASES, ids=[c for c, _ in CASES])
def test_verdicts(command: str, verdict: str) -> None:
    analysis = analyze_shell(command, STRICT)
    assert analysis.verdict == verdict, analysis.reasons


def test_the_table_is_large() -> None:
    assert len(CASES) >= 100
    assert len({c for c, _ in CASES}) == len(CASES)


@pytest.mark.parametrize("command", ["curl http://x", "wget x", "ssh host", "exec 3<>/dev/tcp/h/80"])
def test_network_clients_are_allowed_when_the_network_is(command: str) -> None:
    assert classify_shell(command, Settings.from_toml("[tools.shell]\nconfirm_patterns = []\n")) == "allow"


def test_blocklist_reasons_are_specific() -> None:
    analysis = analyze_shell("echo ok && /usr/bin/sudo -u root id", STRICT)
    assert analysis.block_reasons == ["blocked: sudo (privilege escalation)"]
    assert [c.name for c in analysis.commands] == ["echo", "sudo", "id"]


def test_every_simple_command_is_listed_for_policy_rules() -> None:
    analysis = analyze_shell("cd proj && cargo test; rm -rf target | tee log", STRICT)
    assert [c.argv for c in analysis.commands] == [
        ("cd", "proj"),
        ("cargo", "test"),
        ("rm", "-rf", "target"),
        ("tee", "log"),
    ]


def test_confirm_patterns_name_commands_or_syntax() -> None:
    settings = Settings.from_toml('[tools.shell]\nconfirm_patterns = ["deploy*", "drop table", "$("]\n')
    assert classify_shell("./deploy.sh prod", settings) == "confirm"
    assert classify_shell("./build.sh", settings) == "allow"
    assert classify_shell('psql -c "DROP   TABLE users"', settings) == "confirm"  # a phrase inside one argument
    assert classify_shell("echo '$(not run)'", settings) == "allow"  # syntax inside single quotes is text
    # The defaults keep Zeph's list: any rm asks, but a word containing "rm " does not.
    assert classify_shell("rm notes.txt") == "confirm"
    assert classify_shell('echo "confirm it"') == "allow"


def test_legacy_blocked_commands_are_unconditional() -> None:
    settings = Settings.from_toml('[tools.shell]\nblocked_commands = ["docker", "npm publish"]\n')
    assert classify_shell("docker ps", settings) == "block"
    assert classify_shell("env docker ps", settings) == "block"
    assert classify_shell("npm   publish --tag x", settings) == "block"
    assert classify_shell("npm test", settings) == "allow"


def test_unparseable_input_is_confirm_with_the_parsers_message() -> None:
    analysis = analyze_shell("echo 'oops", STRICT)
    assert analysis.verdict == "confirm"
    assert any("could not parse" in reason for reason in analysis.reasons)
    assert classify_shell("echo \x00 hi", STRICT) == "confirm"


@pytest.mark.parametrize(
    "command",
    ["(" * 500, "$(" * 200 + "x", "a" * 100_000, "bash -c " * 50 + "x", ";" * 1000, "'" * 999, "\\" * 1001],
)
def test_hostile_input_never_crashes(command: str) -> None:
    assert classify_shell(command, STRICT) in ("allow", "confirm", "block")


@pytest.mark.parametrize(
    ("command", "writes"),
    [
        ("ls -la", False),
        ("git status && git diff", False),
        ("cat x | grep y", False),
        ("echo x > out.txt", True),
        ("echo x >> out.txt", True),
        ("ls > /dev/null", False),
        ("sed -i s/a/b/ f", True),
        ("sed s/a/b/ f", False),
        ("pytest", True),  # an unknown program may write anything
        ("find . -delete", True),
        ("case x in a) ls;; esac", True),
    ],
)
def test_may_write(command: str, writes: bool) -> None:
    assert analyze_shell(command).may_write is writes


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("ls -la", "allow"),
        ("git status --short", "allow"),
        ("cd src && ls", "allow"),  # moving around runs nothing
        ("cat a | grep b", "allow"),
        ("git push", "block"),  # git is allowed only as `git status`
        ("ls; python -c 'print(1)'", "block"),
        ("ls $(python -c 'print(1)')", "block"),
        ("./ls", "block"),  # a program here merely named ls
        ("case x in y) ls;; esac", "block"),  # unparsed: it cannot be checked, so it does not run
    ],
)
def test_allowed_commands_is_an_allowlist_of_command_words(command: str, verdict: str) -> None:
    settings = Settings.from_toml('[tools.shell]\nallowed_commands = ["ls", "cat", "grep", "git status"]\n')
    analysis = analyze_shell(command, settings)
    assert analysis.verdict == verdict, analysis.reasons


def test_a_confirm_pattern_of_ones_own_still_matches_anywhere_in_the_line_as_the_seeds_did() -> None:
    """A config ported from the seed: ``"danger"`` asked for ``echo danger`` (a substring of the line) and still
    does; a pattern of one's own matches as a command word too. The built-in patterns stay command words."""
    settings = Settings.from_toml('[tools.shell]\nconfirm_patterns = ["danger", "prod*db"]\n')
    for command in ("echo danger", "danger --now", "cat notes/DANGER.txt", "psql prod_main_db", "./deploy prod-db"):
        assert classify_shell(command, settings) == "confirm", command
    reasons = analyze_shell("echo danger", settings).reasons
    assert any("'danger'" in reason and "anywhere in the line" in reason for reason in reasons), reasons
    assert classify_shell("echo safe", settings) == "allow"
    assert classify_shell("echo farm ", Settings()) == "allow"  # the default "rm " is the command rm only
