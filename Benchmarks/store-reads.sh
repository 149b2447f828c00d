#!/bin/bash
# What one delivery costs the daemon's store, as SQLite counts it, and how soon a D-Bus
# subscriber hears of it (BENCHMARKS.md, "Store transactions per delivery"): two builds of
# notify side by side in one run, alternating, PASSES times each.
#
#   Benchmarks/store-reads.sh BEFORE AFTER [N] [PASSES]
#   SERVICE=off Benchmarks/store-reads.sh BEFORE AFTER [N] [PASSES]   # the daemon alone
#
# BEFORE and AFTER are `notify` binaries. Each pass starts `notify daemon --sink stdout` with
# the D-Bus service on (NOTIFY_SCHEDULER=on, on a private session bus:
# Tests/Fixtures/private-bus.sh) and a subscriber of app `notify`
# (Benchmarks/delivered_listener.py, python3-gi), then N (10) times: `notify schedule --at`
# the next whole second at least 1.5 s ahead, waits for its delivery and for the daemon's
# SQLite to be quiet for half a second. The daemon runs with Tests/Fixtures/sqlite-count.c
# preloaded (a pass-through VFS counting every read mark and write lock SQLite takes on
# the WAL index, `PRAGMA data_version` looks included; a write takes a read mark too, so
# reads are read marks less writes). Prints per build: reads and writes per delivery, and
# the milliseconds from each notification's instant to its `Delivered` signal (median,
# max). Counts, not times, are the point; the latencies depend on the machine's load.
set -eu
before=$1
after=$2
count=${3:-10}
passes=${4:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
listener=""
daemon=""
cleanup() {
  [ -z "$listener" ] || kill "$listener" 2>/dev/null || true
  [ -z "$daemon" ] || kill "$daemon" 2>/dev/null || true
  "$root/Tests/Fixtures/private-bus.sh" stop "$work/bus" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cc -shared -fPIC -O2 -o "$work/count.so" "$root/Tests/Fixtures/sqlite-count.c" -lsqlite3
mkdir -p "$work/services"
eval "$("$root/Tests/Fixtures/private-bus.sh" start "$work/bus" "$work/services")"
export DBUS_SESSION_BUS_ADDRESS
unset JOURNAL_STREAM INVOCATION_ID NOTIFY_SOCKET

lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
# Waits until FILE has not grown for half a second (at most 10 s).
settle() {
  local last now quiet=0 tries=0
  last=$(lines "$1")
  while [ "$quiet" -lt 5 ] && [ "$tries" -lt 100 ]; do
    sleep 0.1
    now=$(lines "$1")
    if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last=$now; fi
    tries=$((tries + 1))
  done
}

# run LABEL BINARY: one pass; appends "reads writes" per delivery to $work/LABEL.counts and
# the latencies to $work/LABEL.latency.
run() {
  local label=$1 binary=$2 dir
  dir=$(mktemp -d -p "$work")
  export NOTIFY_DB=$dir/notify.db
  "$binary" list >/dev/null
  LD_PRELOAD=$work/count.so SQLITE_COUNT_FILE=$dir/count NOTIFY_SCHEDULER=${SERVICE:-on} \
    "$binary" daemon --sink stdout >"$dir/out" 2>"$dir/err" &
  daemon=$!
  until grep -q "ready; watching" "$dir/err" 2>/dev/null; do sleep 0.1; done
  if [ "${SERVICE:-on}" = on ]; then
    until busctl --user status io.github.notify.Scheduler1 >/dev/null 2>&1 ||
      gdbus introspect --session --dest io.github.notify.Scheduler1 --object-path /io/github/notify/Scheduler1 >/dev/null 2>&1; do
      sleep 0.1
    done
    /usr/bin/python3 "$root/Benchmarks/delivered_listener.py" notify "$dir/heard" >"$dir/listener" &
    listener=$!
    until grep -q ready "$dir/listener" 2>/dev/null; do sleep 0.1; done
  fi
  settle "$dir/count"
  for n in $(seq 1 "$count"); do
    local mark at
    mark=$(lines "$dir/count")
    at=$(( $(date +%s%N) / 1000000 + 1500 ))
    at=$(( (at + 999) / 1000 ))
    "$binary" schedule --at "$(date -u -d "@$at" +%Y-%m-%dT%H:%M:%SZ)" --title "n$n" --id "n$n" >/dev/null
    until grep -q "delivered app=notify id=n$n\b" "$dir/err"; do sleep 0.05; done
    settle "$dir/count"
    tail -n +"$((mark + 1))" "$dir/count" | awk '/read/ { r++ } /write/ { w++ } END { print r - w, w + 0 }' \
      >>"$work/$label.counts"
  done
  if [ -n "$listener" ]; then
    # The last signal may trail the last delivery.
    for _ in $(seq 1 50); do [ "$(lines "$dir/heard")" -ge "$count" ] && break; sleep 0.1; done
    awk '{ print $2 }' "$dir/heard" >>"$work/$label.latency"
    kill "$listener"
    wait "$listener" 2>/dev/null || true
  fi
  kill "$daemon"
  wait "$daemon" 2>/dev/null || true
  listener=""
  daemon=""
}

for _ in $(seq 1 "$passes"); do
  run before "$before"
  run after "$after"
done
for label in before after; do
  awk -v label="$label" '{ r += $1; w += $2; n++ } END { printf "%-6s %d deliveries: %.1f reads + %.1f writes per delivery (SQLite read marks and write locks in the daemon)\n", label, n, r / n, w / n }' \
    "$work/$label.counts"
  [ -s "$work/$label.latency" ] || continue
  sort -n "$work/$label.latency" | awk -v label="$label" '{ v[NR] = $1 } END { printf "%-6s Delivered heard %d times: median %.1f ms, max %.1f ms after the instant\n", label, NR, v[int((NR + 1) / 2)], v[NR] }'
done
