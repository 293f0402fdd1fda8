#!/usr/bin/env bash
# Submits a knights count to Slurm: the plan is written here and now, its
# parts run as a job array (one part a task), and a merge job that depends
# on all of them sums the parts and checks that every job is there once.
#
#   scripts/slurm/submit.sh --dir DIR --parts N [--boards] [-- RUN-JOBS-ARGS...] -- PLAN-ARGS...
#
# e.g. every 6x6 tour, 3 parts on the CPU (each task one core a thread):
#   scripts/slurm/submit.sh --dir runs/6x6 --parts 3 --run "--device cpu" -- --size 6 --start all
# or on boards, a board a task (the GRES "fpga"; each node's board is
# reached as KNIGHTS_PORT or the only USB serial port there):
#   scripts/slurm/submit.sh --dir runs/q17 --parts 8 --boards -- --queens 17
#
# Results: DIR/manifest.json, DIR/part-I.json (and .log), DIR/count.json
# and DIR/count.txt from the merge (DIR/merge.log). Prints the two job ids.
# KNIGHTS names the knights binary (default: knights on PATH); extra sbatch
# options go in SBATCH_OPTIONS (e.g. "--partition=fpga --time=2:00:00").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
knights=${KNIGHTS:-knights}
dir="" parts="" boards=0 run_args=""
while [ $# -gt 0 ]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --boards) boards=1; shift ;;
    --run) run_args=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1 (see the top of $0)" >&2; exit 2 ;;
  esac
done
if [ -z "$dir" ] || [ -z "$parts" ] || [ $# -eq 0 ]; then
  echo "usage: $0 --dir DIR --parts N [--boards] [--run RUN-JOBS-ARGS] -- PLAN-ARGS..." >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
"$knights" plan "$@" -o "$dir/manifest.json"

# shellcheck disable=SC2086 # SBATCH_OPTIONS and run_args are lists of words
if [ "$boards" = 1 ]; then
  array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=knights-part --array="0-$((parts - 1))" \
    --gres=fpga:1 --output="$dir/part-%a.log" \
    --export=ALL,KNIGHTS="$knights" "$here/run-part.sbatch" "$dir" "$parts" --device board $run_args)
else
  array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=knights-part --array="0-$((parts - 1))" \
    --output="$dir/part-%a.log" \
    --export=ALL,KNIGHTS="$knights" "$here/run-part.sbatch" "$dir" "$parts" $run_args)
fi
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=knights-merge --dependency="afterok:$array" \
  --output="$dir/merge.log" --export=ALL,KNIGHTS="$knights" "$here/merge.sbatch" "$dir" "$parts")
echo "parts: job $array (array 0-$((parts - 1))); merge: job $merge; the count goes to $dir/count.txt"
