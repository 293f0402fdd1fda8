#!/usr/bin/env bash
# A single-node Slurm on this machine (Debian's slurm-wlm and munge, run as
# root), to try scripts/slurm/ and to test them:
#   local-cluster.sh start DIR   writes DIR/slurm.conf, starts munged,
#                                slurmctld and slurmd, waits for the node
#   local-cluster.sh stop DIR    stops them by their pids
# Clients need SLURM_CONF=DIR/slurm.conf (start prints it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
case $action in start | stop) ;; *) usage ;; esac
mkdir -p "$2"
dir=$(cd "$2" && pwd)

# Stops the daemon whose pid file is $1, if it still runs and is $2.
stop_pid_file() {
  [ -f "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  rm -f "$1"
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop_all() {
  stop_pid_file "$dir/slurmd.pid" slurmd
  stop_pid_file "$dir/slurmctld.pid" slurmctld
  stop_pid_file "$dir/munge/munged.pid" munged
}

case $action in
start)
  for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || { echo "$tool not found: apt-get install slurm-wlm munge" >&2; exit 1; }
  done
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 755 "$dir" "$dir/munge"
  # Ports of its own, so that it does not meet another Slurm on the machine.
  base=$((20000 + $$ % 20000))
  sed -e "s|@DIR@|$dir|g" -e "s|@CPUS@|$(nproc)|g" \
      -e "s|@CTLD_PORT@|$base|g" -e "s|@SLURMD_PORT@|$((base + 1))|g" \
      "$here/local/slurm.conf.in" > "$dir/slurm.conf"
  cp "$here/local/gres.conf" "$dir/gres.conf"
  # A start that fails leaves nothing running.
  trap 'stop_all' ERR
  munged --force --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
         --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed"
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -i -f "$SLURM_CONF"
  slurmd -N localhost -f "$SLURM_CONF"
  for _ in $(seq 60); do
    state=$(sinfo -h -N -o %t 2>/dev/null || true)
    [ "$state" = idle ] && { echo "SLURM_CONF=$SLURM_CONF"; exit 0; }
    sleep 0.5
  done
  echo "the node did not come up (state: ${state:-none}); see $dir/slurmctld.log and $dir/slurmd.log" >&2
  stop_all
  exit 1
  ;;
stop)
  stop_all
  ;;
esac
