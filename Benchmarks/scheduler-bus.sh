#!/usr/bin/env bash
# Scheduling over the D-Bus service (issue 27; BENCHMARKS.md): a private session bus
# (Tests/Fixtures/private-bus.sh), `notify daemon --sink stdout` on it with a fresh store,
# and a python3-gi client timing `Schedule` of one request (p50, p95), batches of 64 and of
# 1000 for one app (936 of them discarded by the 64 limit, each a history row), and
# `ListPending` of 64; beside it `notify schedule` of one (a process each), the CLI's cost.
#
#   bash Benchmarks/scheduler-bus.sh BIN_DIR [SINGLE_CALLS] [BATCH_ROUNDS]
#
# BIN_DIR holds a release `notify` (swift build -c release --product notify). Prints one
# JSON line (milliseconds) and the load before and after.
set -euo pipefail
bin=$1
singles=${2:-300}
rounds=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ -x "$bin/notify" ] || { echo "scheduler-bus: no $bin/notify" >&2; exit 66; }
work=$(mktemp -d /tmp/notify-busbench.XXXXXX)
cleanup() {
  [ -n "${daemon:-}" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  bash "$root/Tests/Fixtures/private-bus.sh" stop "$work/bus" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
echo "scheduler-bus: before: $(uptime | sed 's/.*load/load/')" >&2
eval "$(bash "$root/Tests/Fixtures/private-bus.sh" start "$work/bus" "$work/services")"
export NOTIFY_DB=$work/notify.db NOTIFY_SCHEDULER=on
"$bin/notify" daemon --sink stdout >"$work/daemon.out" 2>"$work/daemon.err" &
daemon=$!
for _ in $(seq 100); do
  gdbus introspect --session --dest io.github.notify.Scheduler1 --object-path /io/github/notify/Scheduler1 \
    >/dev/null 2>&1 && break
  sleep 0.1
done
/usr/bin/python3 "$here/scheduler-bus/bench.py" "$singles" "$rounds" >"$work/bus.json"
cli=()
for i in $(seq 40); do
  start=$(date +%s%N)
  "$bin/notify" schedule --app bench.cli --id "c$((i % 10))" --in 1h --title one >/dev/null
  cli+=($(( ($(date +%s%N) - start) / 1000 )))
done
cli_p50=$(printf '%s\n' "${cli[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}')
python3 -c "import json,sys; d=json.load(open('$work/bus.json')); d['cli_schedule_p50']=float('$cli_p50'); print(json.dumps(d))"
echo "scheduler-bus: after: $(uptime | sed 's/.*load/load/')" >&2
