#!/usr/bin/env bash
# Installs everything knights needs on a fresh Debian/Ubuntu machine, builds
# the CLI, and runs the main job. With --deps-only it stops after installing
# (CI uses that before running the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(verilator yosys nextpnr-ice40 fpga-icestorm make g++)
APT_TOOLS=(verilator yosys nextpnr-ice40 icepack make g++)

need_apt=0
for tool in "${APT_TOOLS[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || need_apt=1
done
if [ "$need_apt" = 1 ]; then
  echo "setup: installing ${APT_PACKAGES[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${APT_PACKAGES[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found: install Rust (https://rustup.rs), then run this again" >&2
  exit 1
fi

[ "${1:-}" = "--deps-only" ] && exit 0

cargo build --release --locked -p knights
./target/release/knights solve --size 8 --start a1
