#!/usr/bin/env bash
# A whole deployment on loopback, for trying the roles out and for the cluster tests' shape:
# PostgreSQL (a throwaway cluster of Debian's binaries), an S3 endpoint (s3rver), two Playwright
# browser servers, two `serve`, two `worker` and two `scheduler` processes.
#
#   scripts/cluster.sh start [--binary dist/design-intel] [--allow-private]   # prints where each listens
#   scripts/cluster.sh status
#   scripts/cluster.sh stop
#
# CLUSTER_DIR (default /tmp/design-intel-cluster) holds each instance's DATA_DIR and log and
# cluster.json. Needs `bash scripts/bootstrap.sh --test` (the PostgreSQL binaries) first.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${CLUSTER_DIR:-/tmp/design-intel-cluster}"
STATE="$DIR/cluster.json"
PIDFILE="$DIR/supervisor.pid"

running() { [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

case "${1:-}" in
  start)
    shift
    if running; then echo "cluster: already running (scripts/cluster.sh status)"; exit 1; fi
    mkdir -p "$DIR"
    rm -f "$STATE"
    nohup bun scripts/cluster/supervisor.ts --dir "$DIR" "$@" >"$DIR/supervisor.log" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 600); do
      if [[ -f "$STATE" ]]; then cat "$STATE"; exit 0; fi
      if ! running; then echo "cluster: failed to start:"; tail -n 40 "$DIR/supervisor.log"; exit 1; fi
      sleep 0.5
    done
    echo "cluster: not up after 300 s; see $DIR/supervisor.log"
    exit 1
    ;;
  status)
    if running && [[ -f "$STATE" ]]; then cat "$STATE"; else echo "cluster: not running"; exit 1; fi
    ;;
  stop)
    if ! running; then echo "cluster: not running"; rm -f "$PIDFILE"; exit 0; fi
    pid="$(cat "$PIDFILE")"
    kill -TERM "$pid"
    for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then echo "cluster: supervisor $pid did not stop; killing it"; kill -KILL "$pid"; fi
    rm -f "$PIDFILE"
    echo "cluster: stopped"
    ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
