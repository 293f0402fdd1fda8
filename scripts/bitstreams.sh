#!/usr/bin/env bash
# Builds bitstreams with `knights build` (every board, or those named) into
# build/NAME, checks each with `knights check-build` (what the FPGA will run,
# simulated in a conversation; --no-check skips that), then prints the table
# of builds. With --docs it also writes
# that table into docs/builds.md between its build-table markers (--readme is
# an older name for --docs, kept for scripts that use it); with --no-build it
# only reads the build.json files already in build/. --dev builds the CLI in
# the dev profile (optimised too, without the release's link-time
# optimisation); --knights PATH runs that CLI binary and builds none (CI
# passes the one `cargo test --workspace` built).
#   scripts/bitstreams.sh [--docs] [--no-build] [--no-check] [--dev]
#                         [--knights PATH] [BOARD...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"

docs=0 build=1 check=1 profile=release knights=
while [ $# -gt 0 ]; do
  case "$1" in
    --docs | --readme) docs=1 ;;
    --no-build) build=0 ;;
    --no-check) check=0 ;;
    --dev) profile=dev ;;
    --knights) knights="$2"; shift ;;
    *) break ;;
  esac
  shift
done
if [ -z "$knights" ]; then
  cargo build -q --profile "$profile" --locked -p knights
  # (Cargo puts the dev profile's build in target/debug.)
  knights=./target/$([ "$profile" = dev ] && echo debug || echo release)/knights
elif [ ! -x "$knights" ]; then
  echo "bitstreams.sh: --knights $knights is not an executable: build it first (cargo build -p knights)" >&2
  exit 2
fi
boards=("$@")
if [ ${#boards[@]} = 0 ]; then
  mapfile -t boards < <("$knights" boards | awk 'NR > 1 { print $1 }')
fi

dirs=()
for board in "${boards[@]}"; do
  if [ "$build" = 1 ]; then
    echo "== $board" >&2
    "$knights" build --board "$board" --out "build/$board"
    if [ "$check" = 1 ]; then
      "$knights" check-build --board "$board" --dir "build/$board"
    fi
  fi
  dirs+=("build/$board")
done
table=$("$knights" build-table "${dirs[@]}")
echo "$table"

if [ "$docs" = 1 ]; then
  TABLE="$table" TABLE_FILE=docs/builds.md python3 - <<'PY'
import os
path = os.environ["TABLE_FILE"]
text = open(path).read()
begin, end = "<!-- build-table:begin -->", "<!-- build-table:end -->"
assert begin in text and end in text, f"{path} has no build-table markers"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w").write(head + begin + "\n" + os.environ["TABLE"] + "\n" + end + tail)
PY
  echo "docs/builds.md: table updated" >&2
fi
