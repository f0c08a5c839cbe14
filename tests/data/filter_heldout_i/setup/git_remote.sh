#!/bin/bash
# The rota app's shared repository and a volunteer's clone of it, two weeks apart: since the clone, the remote
# grew feature branches and weekly tags, one branch was rebased (a forced update), two were deleted, and the clone
# keeps a local tag the remote moved. Fixed dates, so hashes are stable.
set -e
export GIT_AUTHOR_DATE="2026-11-02T10:00:00Z" GIT_COMMITTER_DATE="2026-11-02T10:00:00Z"
git init -q -b main remote-work
cd remote-work
for n in $(seq 1 12); do echo "week $n" > "rota-$n.txt"; git add .; git commit -q -m "rota: week $n"; done
for b in $(seq 1 14); do git branch "feature/shift-swap-$b"; done
git checkout -q -b fix/annex-hours; echo draft > hours.txt; git add .; git commit -q -m 'annex hours, draft'; git checkout -q main
git branch old/print-labels; git branch old/sms-reminders
git tag v0.1.0; git tag week-44
cd ..
git clone -q --bare remote-work remote.git
git clone -q remote.git clone
cd remote-work
export GIT_AUTHOR_DATE="2026-11-16T10:00:00Z" GIT_COMMITTER_DATE="2026-11-16T10:00:00Z"
git remote add origin ../remote.git
for n in $(seq 13 20); do echo "week $n" > "rota-$n.txt"; git add .; git commit -q -m "rota: week $n"; done
for b in $(seq 1 14); do git checkout -q "feature/shift-swap-$b"; echo "swap $b" > "swap-$b.txt"; git add .; git commit -q -m "swap $b"; done
git checkout -q main
for b in $(seq 15 40); do git branch "feature/shift-swap-$b"; done
git checkout -q -B fix/annex-hours main~3; echo hours > hours.txt; git add .; git commit -q -m "annex hours, rebased"
git checkout -q main
for w in $(seq 45 48); do git tag "week-$w" main~$((48 - w)); done
git tag -f week-44 main~5 >/dev/null
git tag v0.2.0
git push -q --force --all origin
git push -q --force --tags origin
git push -q origin --delete old/print-labels old/sms-reminders
