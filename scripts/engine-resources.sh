#!/usr/bin/env bash
# Synthesises one engine with yosys for iCE40 and ECP5 and prints its
# LUT, flip-flop and block-RAM use: scripts/engine-resources.sh 8 8 [16 16 ...]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p knights
knights=${CARGO_TARGET_DIR:-target}/release/knights
while [ $# -ge 2 ]; do
  w=$1 h=$2; shift 2
  "$knights" verilog --size "${w}x${h}" --engine-only > "$work/top.v"
  for family in ice40 ecp5; do
    yosys -q -p "read_verilog $work/top.v; synth_$family -top top; tee -o $work/stat.txt stat" > /dev/null
    awk -v board="${w}x${h}" -v family="$family" '
      $1 == "SB_LUT4" || $1 == "LUT4" { luts += $2 }
      $1 ~ /^(SB_DFF|TRELLIS_FF)/ { ffs += $2 }
      $1 ~ /^(SB_RAM40_4K|DP16KD|TRELLIS_DPR16X4)$/ { rams = rams $1 "=" $2 " " }
      $1 == "CCU2C" || $1 == "SB_CARRY" { carries += $2 }
      END { printf "%-6s %-6s LUT4 %6d  FF %6d  carry %5d  RAM %s\n", board, family, luts, ffs, carries, rams }
    ' "$work/stat.txt"
  done
done
