#!/usr/bin/env bash
# The firing figures in one table (BENCHMARKS.md, "Firing"): bursts of 5 at one
# instant, 1000 at one instant, single arrivals 0.5 s apart (each against the sd-event
# floor of the same round, round by round), the idle daemon's wake-ups and RSS, and store
# transactions per delivery. Run it through `.ci/bench`, which builds first:
#
#   bash .ci/bench --only firing                # about 10 minutes once built
#   FIRING_REPEATS=5 bash .ci/bench --only firing
#   FIRING_RT=1 bash .ci/bench --only firing    # latency under SCHED_FIFO (root), below
#   FIRING_ONLY="burst5 single" bash .ci/bench --only firing   # some of: burst5 burst1000
#                                                # single idle transactions
#
# or on its own, with the folder of a build that has notify, fire-latency, sd-event-floor
# and idle-cost:
#
#   bash Benchmarks/firing-table.sh BIN_DIR [REPEATS]
#
# Each latency scenario runs REPEATS rounds (default 3), the floor and the daemon
# interleaved; a ratio is taken within a round and the table gives the median of the
# rounds' ratios, with the range. Idle runs REPEATS daemons side by side (they sleep), the
# transactions REPEATS times each. The load (`uptime`) is printed before and after: on a
# shared machine a figure means little without it. The table goes to stdout; the raw
# figures stay in $FIRING_KEEP when it is set.
#
# FIRING_RT=1 runs the latency scenarios (harness, floor and daemon alike) under
# `chrt -f 1`: the real-time class runs them ahead of every ordinary task, so the figures
# are the software's cost with the machine's other load (parallel builds) taken out. On a
# busy shared machine these are the figures to judge the absolute targets (20 ms, 2 ms) on;
# the ordinary run says how the daemon fares beside the load. Needs root (or CAP_SYS_NICE).
set -euo pipefail
bin=$1
repeats=${2:-${FIRING_REPEATS:-3}}
here=$(cd "$(dirname "$0")" && pwd)
for tool in notify fire-latency sd-event-floor idle-cost; do
  [ -x "$bin/$tool" ] || { echo "firing-table: no $bin/$tool; build first (bash .ci/bench --only firing)" >&2; exit 66; }
done
work=${FIRING_KEEP:-$(mktemp -d /tmp/notify-firing.XXXXXX)}
mkdir -p "$work"
[ -n "${FIRING_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
log() { printf '\n== firing-table: %s (%s)\n' "$*" "$(uptime | sed 's/.*load/load/')" >&2; }
# A step that fails is reported and leaves its rows empty; the others still run.
failed=0
step() { "$@" || { echo "firing-table: failed: $*" >&2; failed=1; }; }
only=" ${FIRING_ONLY:-burst5 burst1000 single idle transactions} "
wants() { [[ "$only" == *" $1 "* ]]; }

uptime >"$work/load-before"
[ -z "${FIRING_RT:-}" ] || echo "latency under SCHED_FIFO (chrt -f 1)" >"$work/policy"
fire=()
[ -z "${FIRING_RT:-}" ] || fire=(chrt -f 1)
fire+=("$bin/fire-latency" --notify "$bin/notify" --floor "$bin/sd-event-floor" --repeats "$repeats")
if wants burst5; then
  log "bursts of 5 at one instant, 20 instants 0.5 s apart"
  step "${fire[@]}" --burst 5 --count 20 --spacing-ms 500 --summary "$work/latency.tsv" --raw "$work/raw-burst5.tsv" >"$work/burst5.md"
fi
if wants burst1000; then
  log "1000 at one instant, 5 instants 2 s apart"
  step "${fire[@]}" --burst 1000 --count 5 --spacing-ms 2000 --summary "$work/latency.tsv" --raw "$work/raw-burst1000.tsv" >"$work/burst1000.md"
fi
if wants single; then
  log "single arrivals 0.5 s apart, 100 of them"
  step "${fire[@]}" --count 100 --spacing-ms 500 --schedule-with library --summary "$work/latency.tsv" --raw "$work/raw-single.tsv" >"$work/single.md"
fi

if wants idle; then
  log "idle, $repeats daemons side by side, 60 s"
  pids=()
  for i in $(seq 1 "$repeats"); do
    "$bin/idle-cost" --notify "$bin/notify" --python none >"$work/idle-$i.md" 2>"$work/idle-$i.err" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || { echo "firing-table: an idle run failed" >&2; failed=1; }; done
fi

if wants transactions; then
  log "store transactions per delivery"
  for i in $(seq 1 "$repeats"); do
    step timeout 120 bash "$here/store-transactions.sh" "$bin/notify" 1 stdout >>"$work/transactions.txt"
    step timeout 120 bash "$here/store-transactions.sh" "$bin/notify" 5 stdout >>"$work/transactions.txt"
    if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
      step timeout 120 bash "$here/store-transactions.sh" "$bin/notify" 1 desktop >>"$work/transactions.txt"
    fi
  done
fi
uptime >"$work/load-after"

python3 "$here/firing_table.py" "$work" "$repeats"
exit "$failed"
