#!/bin/bash
# The shed's inventory repo: 150 commits on fixed dates over a handful of files, two branches and a tag, then a
# disk hiccup: one loose blob and one loose tree are lost (deleted), as a bad sector or an rsync would lose them.
set -e
dest=$1
git init -q -b main "$dest"
cd "$dest"
git config user.name "Shed Volunteer"
git config user.email "volunteer@example.org"
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
for i in $(seq 1 150); do
  GIT_AUTHOR_DATE="2026-03-01T10:00:00Z"; GIT_AUTHOR_DATE=$(date -u -d "2026-03-01 10:00 UTC + $i hours" +%FT%TZ)
  GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
  mkdir -p "shelves/$((i % 12))"
  echo "tool-$i checked on $GIT_AUTHOR_DATE" >> "shelves/$((i % 12))/inventory.txt"
  echo "$i" > count.txt
  git add -A
  git commit -q -m "inventory: shelf $((i % 12)) count $i"
  [ "$i" = 60 ] && git branch winter-stock
  [ "$i" = 100 ] && git tag -a v2026.1 -m "spring count"
done
git checkout -q winter-stock
for i in $(seq 1 20); do
  GIT_AUTHOR_DATE=$(date -u -d "2026-04-01 10:00 UTC + $i hours" +%FT%TZ); GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
  echo "winter tool $i" >> winter.txt
  git add winter.txt
  git commit -q -m "winter stock $i"
done
git checkout -q main
# The lost objects: a blob only the winter branch reaches, and the tree of main's 140th commit's shelves/8.
blob=$(git rev-parse winter-stock~5:winter.txt)
tree=$(git rev-parse main~10:shelves/8)
rm -f ".git/objects/${blob:0:2}/${blob:2}" ".git/objects/${tree:0:2}/${tree:2}"
