#!/usr/bin/env bash
# Builds bitstreams with `knights build` (every board, or those named) into
# build/NAME, then prints the table of builds. With --readme it also writes
# that table into README.md between its build-table markers; with --no-build
# it only reads the build.json files already in build/.
#   scripts/bitstreams.sh [--readme] [--no-build] [BOARD...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"

readme=0 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --readme) readme=1 ;;
    --no-build) build=0 ;;
    *) break ;;
  esac
  shift
done
cargo build -q --release --locked -p knights
knights=./target/release/knights
boards=("$@")
if [ ${#boards[@]} = 0 ]; then
  mapfile -t boards < <("$knights" boards | awk 'NR > 1 { print $1 }')
fi

dirs=()
for board in "${boards[@]}"; do
  if [ "$build" = 1 ]; then
    echo "== $board" >&2
    "$knights" build --board "$board" --out "build/$board"
  fi
  dirs+=("build/$board")
done
table=$("$knights" build-table "${dirs[@]}")
echo "$table"

if [ "$readme" = 1 ]; then
  TABLE="$table" python3 - <<'PY'
import os, re
text = open("README.md").read()
begin, end = "<!-- build-table:begin -->", "<!-- build-table:end -->"
assert begin in text and end in text, "README.md has no build-table markers"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open("README.md", "w").write(head + begin + "\n" + os.environ["TABLE"] + "\n" + end + tail)
PY
  echo "README.md: table updated" >&2
fi
