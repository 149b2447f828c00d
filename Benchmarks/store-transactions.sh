#!/bin/bash
# Store transactions per delivery of `notify daemon` (BENCHMARKS.md, "Store
# transactions per delivery"): the daemon idle before, N notifications scheduled by other
# processes for one instant 3 s ahead, counted from the moment they are scheduled until
# they are delivered and the daemon is idle again. NOTIFY_STORE_TRACE=1 makes the store log
# every transaction it begins (`notify store: read …`, `notify store: write …`).
#
#   Benchmarks/store-transactions.sh BINARY [N] [stdout|desktop]
#
# desktop needs a notification server on the session bus (`.ci/desktop-session.sh`).
set -eu
binary=$1
count=${2:-1}
sink=${3:-stdout}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export NOTIFY_DB=$dir/notify.db
"$binary" list >/dev/null
NOTIFY_STORE_TRACE=1 "$binary" daemon --sink "$sink" >"$dir/out" 2>"$dir/err" &
pid=$!
delivered() { grep -c '"event":"delivered"\|: delivered' "$dir/out" "$dir/err" | awk -F: '{ n += $2 } END { print n }'; }
# Started and idle: its first wake-up has run (a fixed pause, not a test: figures only).
until grep -q "notify store" "$dir/err" 2>/dev/null; do sleep 0.2; done
sleep 1
before=$(grep -c "notify store" "$dir/err")
at=$(date -u -d "+3 seconds" +%Y-%m-%dT%H:%M:%SZ)
for n in $(seq 1 "$count"); do "$binary" schedule --at "$at" --title "n$n" >/dev/null; done
until [ "$(delivered)" -ge "$count" ]; do sleep 0.2; done
sleep 1
grep "notify store" "$dir/err" | tail -n +"$((before + 1))" >"$dir/walk"
kill "$pid"
wait "$pid" || true
reads=$(grep -c 'notify store: read' "$dir/walk" || true)
writes=$(grep -c 'notify store: write' "$dir/walk" || true)
filter=$(grep -c 'data_version' "$dir/walk" || true)
echo "$sink, $count at one instant: $reads reads ($filter of them the change filter's PRAGMA data_version), $writes writes"
[ -z "${VERBOSE:-}" ] || cat "$dir/walk"
