#!/usr/bin/env bash
# Submits a knights count to Slurm: the plan is written here and now, its
# parts run as a job array (one part a task), and a merge job that depends
# on all of them sums the parts and checks that every job is there once.
#
#   scripts/slurm/submit.sh --dir DIR --parts N [--boards] [--run "RUN-JOBS-ARGS"] -- PLAN-ARGS...
#
# e.g. every 6x6 tour, 3 parts on the CPU (each task one core a thread):
#   scripts/slurm/submit.sh --dir runs/6x6 --parts 3 --run "--device cpu" -- --size 6 --start all
# or on boards, a board a task (the GRES "fpga"). A task reaches its board
# as KNIGHTS_PORT, or as the node's only USB serial port: on a node with
# several boards, set KNIGHTS_PORT per task (a TaskProlog can), as Slurm
# names no port for a generic resource:
#   scripts/slurm/submit.sh --dir runs/q17 --parts 8 --boards -- --queens 17
#
# Results: DIR/manifest.json, DIR/part-I.json (and .log), DIR/count.json
# and DIR/count.txt from the merge (DIR/merge.log), which runs after the
# parts whatever became of them and names any part to run again. Prints the
# two job ids.
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

# The tasks find knights through the environment (sbatch exports it).
export KNIGHTS="$knights"
read -r -a run_words <<< "$run_args"
read -r -a sbatch_words <<< "${SBATCH_OPTIONS:-}"
part_options=(--job-name=knights-part --array="0-$((parts - 1))" --output="$dir/part-%a.log")
if [ "$boards" = 1 ]; then
  part_options+=(--gres=fpga:1)
  run_words=(--device board "${run_words[@]}")
fi
array=$(sbatch --parsable "${sbatch_words[@]}" "${part_options[@]}" "$here/run-part.sbatch" "$dir" "$parts" "${run_words[@]}")
array=${array%%;*}
# afterany: the merge runs however the parts ended, and names what is missing.
merge=$(sbatch --parsable "${sbatch_words[@]}" --job-name=knights-merge --dependency="afterany:$array" \
  --output="$dir/merge.log" "$here/merge.sbatch" "$dir" "$parts")
merge=${merge%%;*}
echo "parts: job $array (array 0-$((parts - 1))); merge: job $merge; the count goes to $dir/count.txt"
