#!/usr/bin/env bash
# Scheduling over the D-Bus service (BENCHMARKS.md, "The D-Bus service"): one call against
# its floors and the CLI, batches, many clients at once (the group commit), other apps'
# fire latency while a client floods the service, and systemd-run under a real user manager. Run it through `.ci/bench`, which builds first:
#
#   bash .ci/bench --only bus                 # about 6 minutes once built
#   BUS_RT=1 bash .ci/bench --only bus        # everything under `chrt -f 1` (root)
#   BUS_ONLY="calls flood" bash .ci/bench --only bus   # some of: calls concurrent flood transient
#
# or on its own, with the folder of a build that has notify, fire-latency and sd-event-floor:
#
#   bash Benchmarks/scheduler-bus.sh BIN_DIR [SINGLE_CALLS] [BATCH_ROUNDS] [FLOOD_ARRIVALS] [ROUNDS]
#
# Four steps, each printing a table (concurrent is described where it is defined):
#
# calls: a private session bus (Tests/Fixtures/private-bus.sh), `notify daemon --sink
#   stdout` on it with a fresh store, and the python3-gi client of scheduler-bus/bench.py:
#   SINGLE_CALLS (300) rounds of four calls, interleaved, the floors of one call beside it
#   (the bus daemon's GetId; notify's Peer.Ping, which sd-bus answers itself; notify's
#   Version property, through notify's handler but not its store) and one `Schedule`;
#   SINGLE_CALLS `Schedule` calls back to back (each waits for what the daemon did after
#   the one before); then BATCH_ROUNDS (5) batches of 64 and of 1000 for one app (936 of them discarded by
#   the 64 limit) and `ListPending` of 64; beside it 40 `notify schedule` runs, and the
#   folder's floor for an answer that waits for the disk (one 4 KiB write appended and its
#   fdatasync). With BUS_BEFORE=PATH (another build's notify) the same client runs against
#   that daemon too, alternating, BUS_PASSES (3) times each (the CLI alternating run by
#   run): the before and after of a change in one run. BUS_TMP=DIR puts the stores there
#   (/tmp by default; /dev/shm, where a sync costs nothing, shows the cost without the disk).
# flood: `fire-latency --count FLOOD_ARRIVALS (60) --spacing-ms 500 --repeats ROUNDS (2)
#   --flood scheduler-bus/flood.py` with the daemon's D-Bus service on (NOTIFY_SCHEDULER=on on
#   the private bus): per round the sd-event floor, the daemon, and the daemon while a
#   client floods its service with `Schedule` batches of 64 for another app.
# transient: a real `systemd --user` (Tests/Fixtures/user-manager.sh; root, the test user of
#   .ci/install-packages) and scheduler-bus/transient.py as its user: `systemd-run --user
#   --on-active=1h` against `StartTransientUnit`, `notify schedule` and one `Schedule` to a
#   `notify daemon` on the manager's bus, and their removals, ROUNDS x 20 rounds. When a
#   user manager cannot run here, the step says why and fails.
#
# stall: scheduler-bus/stall.py: another connection's `ListPending` back to back while one
#   client sends the largest call the file bounds allow (a batch of 1000, the 64 kept, five
#   10 MiB images and an 8.4 MB sound: 58.5 MB of files), STALL_ROUNDS (5) times; the
#   longest `ListPending` overlapping the call, against the target of 100 ms. With
#   BUS_BEFORE the same rounds run against that daemon too.
#
# BUS_RT=1 runs every step (bus daemons, notify daemons, clients, the CLI, systemd-run;
# the user manager too) under `chrt -f 1`: the software's cost with the machine's other load
# taken out. The load (`uptime`) is printed before and after. A step that fails is
# reported, the others still run, and the exit status is 1.
set -euo pipefail
bin=$1
singles=${2:-300}
rounds=${3:-5}
arrivals=${4:-60}
repeats=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
only=" ${BUS_ONLY:-calls concurrent flood transient stall} "
wants() { [[ "$only" == *" $1 "* ]]; }
for tool in notify fire-latency sd-event-floor; do
  [ -x "$bin/$tool" ] || { echo "scheduler-bus: no $bin/$tool; build first (bash .ci/bench --only bus)" >&2; exit 66; }
done
rt=()
[ -z "${BUS_RT:-}" ] || rt=(chrt -f 1)
work=$(mktemp -d "${BUS_TMP:-/tmp}/notify-busbench.XXXXXX")
chmod 755 "$work"
daemon=
cleanup() {
  [ -z "$daemon" ] || { kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null; } || true
  bash "$root/Tests/Fixtures/private-bus.sh" stop "$work/bus" >/dev/null 2>&1 || true
  [ ! -d "$work/manager" ] || bash "$root/Tests/Fixtures/user-manager.sh" stop "$work/manager" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
load() { uptime | sed 's/.*load/load/'; }
failed=0
echo "Scheduling over the D-Bus service$([ -z "${BUS_RT:-}" ] || echo ", under chrt -f 1"); before: $(load)"

# Starts `notify daemon` ($1) on the private bus and waits for its name.
start_daemon() {
  NOTIFY_DB=$work/$2.db NOTIFY_SCHEDULER=on "${rt[@]}" "$1" daemon --sink stdout >/dev/null 2>"$work/$2.err" &
  daemon=$!
  for _ in $(seq 200); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
      --method org.freedesktop.DBus.NameHasOwner io.github.notify.Scheduler1 2>/dev/null | grep -q true && return 0
    sleep 0.05
  done
  echo "scheduler-bus: $1 daemon did not take its name ($work/$2.err)" >&2
  return 1
}
stop_daemon() { kill "$daemon" && wait "$daemon" || true; daemon=; }

calls() {
  local binaries=("$bin/notify") passes=1 i
  if [ -n "${BUS_BEFORE:-}" ]; then binaries=("$BUS_BEFORE" "$bin/notify"); passes=${BUS_PASSES:-3}; fi
  for i in $(seq "$passes"); do
    for notify in "${binaries[@]}"; do
      local label=after
      [ "$notify" = "$bin/notify" ] || label=before
      start_daemon "$notify" "calls-$label-$i" || return 1
      "${rt[@]}" /usr/bin/python3 "$here/scheduler-bus/bench.py" "$singles" "$rounds" >>"$work/calls-$label.jsonl"
      stop_daemon
    done
  done
  # The CLI, a process each, the builds alternating call by call (each on a store of its own).
  local start notify label
  for i in $(seq 40); do
    for notify in "${binaries[@]}"; do
      label=after
      [ "$notify" = "$bin/notify" ] || label=before
      start=$(date +%s%N)
      NOTIFY_DB=$work/cli-$label.db "${rt[@]}" "$notify" schedule --app bench.cli --id "c$((i % 10))" --in 1h --title one >/dev/null
      echo $(((($(date +%s%N) - start)) / 1000)) >>"$work/cli-$label.txt"
    done
  done
  # The floor an answer that waits for the disk cannot go under: one 4 KiB write appended
  # to a file and its fdatasync, on the folder the stores are in (a growing WAL is appended
  # to; the file's new size makes the file system commit its journal too).
  "${rt[@]}" /usr/bin/python3 - "$work/floor" >"$work/floor.txt" <<'FLOOR'
import os, statistics, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
times = []
for i in range(300):
    start = time.perf_counter()
    os.pwrite(fd, b"x" * 4096, i * 4096)
    os.fdatasync(fd)
    times.append((time.perf_counter() - start) * 1000)
print("%.3f %.3f" % (statistics.median(times), sorted(times)[int(len(times) * 0.95)]))
FLOOR
  python3 - "$work" "$singles" "$rounds" <<'EOF'
import json, statistics, sys, os
work, singles, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
cli = {label: statistics.median(int(line) / 1000 for line in open("%s/cli-%s.txt" % (work, label)))
       for label in ("before", "after") if os.path.exists("%s/cli-%s.txt" % (work, label))}
floor_p50, floor_p95 = (float(v) for v in open(work + "/floor.txt").read().split())
runs = {label: [json.loads(line) for line in open("%s/calls-%s.jsonl" % (work, label))]
        for label in ("before", "after") if os.path.exists("%s/calls-%s.jsonl" % (work, label))}
def figure(label, key):
    values = [run[key] for run in runs[label]]
    text = "%.2f ms" % statistics.median(values)
    return text + (" (%s)" % ", ".join("%.2f" % v for v in values) if len(values) > 1 else "")
rows = [
    ("the bus daemon's GetId (client and bus, no notify)", "bus_getid_p50"),
    ("notify's Peer.Ping (answered by sd-bus)", "notify_ping_p50"),
    ("notify's Version property (notify's handler, no store)", "notify_version_p50"),
    ("`Schedule` of one request, p50", "single_p50"),
    ("`Schedule` of one request, p95", "single_p95"),
    ("`Schedule` of one request, %s calls back to back, p50" % singles, "back_to_back_p50"),
    ("the same, p95", "back_to_back_p95"),
    ("`Schedule` of a batch of 64, median of %s" % rounds, "batch64_median"),
    ("`Schedule` of a batch of 1000 for one app (936 discarded), median of %s" % rounds, "batch1000_median"),
    ("`ListPending` of 64, p50", "list64_p50"),
]
labels = list(runs)
print()
print("One call, %s rounds of GetId, Ping, Version and Schedule interleaved%s" % (
    singles, "; each build's daemon %d times, alternating (median, and each run)" % len(runs["after"]) if len(labels) > 1 else ""))
print()
print("| what | " + " | ".join({"before": "before", "after": "this build"}[l] for l in labels) + " | target |")
print("|---|" + "---|" * len(labels) + "---|")
targets = {"single_p50": "≤ 1 ms", "back_to_back_p50": "≤ 1 ms", "batch1000_median": "≤ 100 ms"}
for name, key in rows:
    print("| %s | %s | %s |" % (name, " | ".join(figure(l, key) for l in labels), targets.get(key, "")))
after = statistics.median(run["single_p50"] for run in runs["after"])
version = statistics.median(run["notify_version_p50"] for run in runs["after"])
print("| `notify schedule` of one, p50 of 40 (a process each) | %s |  |" % " | ".join("%.2f ms" % cli[l] for l in labels))
print()
print("bus / CLI, p50: 1 : %.1f; Schedule minus the Version property (what the store and the rules cost): %.2f ms" % (
    cli["after"] / after, after - version))
ping = statistics.median(run["notify_ping_p50"] for run in runs["after"])
print("this folder's floor, one 4 KiB write appended and its fdatasync: p50 %.2f ms, p95 %.2f ms; Schedule p50 minus that floor "
      "costs %.2f ms more than the Ping" % (floor_p50, floor_p95, after - floor_p50 - ping))
EOF
}

# concurrent: CLIENTS (16) processes calling `Schedule` at once, CALLS (100) each, against
#   this build's daemon with its group commit and with NOTIFY_SERVICE_SYNC=each (a sync per
#   commit, each answer at once), alternating, BUS_PASSES (3) times; on this machine's disk
#   and with every sync taking SLOW_SYNC_MS (5) ms (Tests/Fixtures/slow-sync.c, as a
#   laptop's disk with its write cache flushed).
concurrent() {
  local clients=${BUS_CLIENTS:-16} calls=${BUS_CALLS:-100} passes=${BUS_PASSES:-3} shim="$work/slow-sync.so" i
  cc -shared -fPIC -O2 -o "$shim" "$root/Tests/Fixtures/slow-sync.c" -ldl || return 1
  for i in $(seq "$passes"); do
    for disk in fast slow; do
      for mode in group each; do
        local preload="" sync=""
        [ "$disk" = slow ] && preload=$shim
        [ "$mode" = each ] && sync=each
        LD_PRELOAD=$preload SLOW_SYNC_MS=${SLOW_SYNC_MS:-5} NOTIFY_SERVICE_SYNC=$sync \
          start_daemon "$bin/notify" "concurrent-$disk-$mode-$i" || return 1
        "${rt[@]}" /usr/bin/python3 "$here/scheduler-bus/concurrent.py" "$clients" "$calls" \
          >>"$work/concurrent-$disk-$mode.jsonl"
        stop_daemon
      done
    done
  done
  python3 - "$work" "$clients" "$calls" "${SLOW_SYNC_MS:-5}" <<'EOF'
import json, statistics, sys
work, clients, calls, slow = sys.argv[1:5]
def runs(disk, mode):
    return [json.loads(line) for line in open("%s/concurrent-%s-%s.jsonl" % (work, disk, mode))]
print()
print("%s clients calling `Schedule` at once, %s calls each (median of the passes, and each pass)" % (clients, calls))
print()
print("| disk | group commit, calls/s | a sync per call, calls/s | ratio | group p50 / p95 | per call p50 / p95 |")
print("|---|---|---|---|---|---|")
for disk, name in (("fast", "this machine's"), ("slow", "%s ms a sync" % slow)):
    group, each = runs(disk, "group"), runs(disk, "each")
    g = statistics.median(r["calls_per_second"] for r in group)
    e = statistics.median(r["calls_per_second"] for r in each)
    print("| %s | %.0f (%s) | %.0f (%s) | %.1fx | %.2f / %.2f ms | %.2f / %.2f ms |" % (
        name, g, ", ".join("%.0f" % r["calls_per_second"] for r in group),
        e, ", ".join("%.0f" % r["calls_per_second"] for r in each), g / e,
        statistics.median(r["p50"] for r in group), statistics.median(r["p95"] for r in group),
        statistics.median(r["p50"] for r in each), statistics.median(r["p95"] for r in each)))
EOF
}

flood() {
  local env=(NOTIFY_SCHEDULER=on)
  "${rt[@]}" env "${env[@]}" "$bin/fire-latency" --notify "$bin/notify" --floor "$bin/sd-event-floor" \
    --count "$arrivals" --spacing-ms 500 --schedule-with library --repeats "$repeats" \
    --flood "/usr/bin/python3 $here/scheduler-bus/flood.py"
}

transient() {
  local manager=$root/Tests/Fixtures/user-manager.sh reason
  if ! reason=$(bash "$manager" check 2>&1); then
    echo "scheduler-bus: no user manager here, so no systemd-run to compare with: ${reason#user-manager: }" >&2
    return 1
  fi
  # The manager's state lives inside $work; the test user reads the binary and the scripts
  # from a copy there (the build folder may not be open to it).
  mkdir -p "$work/copy"
  cp "$bin/notify" "$here/scheduler-bus/transient.py" "$work/copy/"
  chmod -R a+rX "$work/copy"
  "${rt[@]}" bash "$manager" start "$work/manager" >"$work/manager.env" || return 1
  local count=$((repeats * 20))
  "${rt[@]}" bash "$manager" run "$work/manager" -- /usr/bin/python3 "$work/copy/transient.py" \
    "$work/copy/notify" "$count" >"$work/transient.json" || return 1
  bash "$manager" stop "$work/manager" >/dev/null 2>&1 || true
  python3 - "$work/transient.json" "$count" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print()
print("One job made and removed under a real user manager (systemd %s), %s rounds interleaved, p50" % (
    __import__("subprocess").run(["systemctl", "--version"], capture_output=True, text=True).stdout.split()[1], sys.argv[2]))
print()
print("| what | make | remove | make against one `Schedule` |")
print("|---|---|---|---|")
one = d["bus_schedule_p50"]
for name, make, remove in [
    ("`systemd-run --user --on-active=1h --unit U true` / `systemctl --user stop U.timer` (a process each)", "systemd_run", "systemctl_stop"),
    ("`StartTransientUnit` of the same timer / `StopUnit` (one call each to the user manager)", "start_transient_unit", "stop_unit"),
    ("`notify schedule --in 1h` / `notify cancel` (a process each)", "notify_schedule", "notify_cancel"),
    ("`Schedule` of one request / `Cancel` (one call each to `notify daemon`)", "bus_schedule", "bus_cancel"),
]:
    print("| %s | %.2f ms | %.2f ms | %.1fx |" % (name, d[make + "_p50"], d[remove + "_p50"], d[make + "_p50"] / one))
EOF
}

stall() {
  local binaries=("$bin/notify") notify label
  [ -z "${BUS_BEFORE:-}" ] || binaries=("$BUS_BEFORE" "$bin/notify")
  mkdir -p "$work/stall-files"
  for notify in "${binaries[@]}"; do
    label=after
    [ "$notify" = "$bin/notify" ] || label=before
    XDG_DATA_HOME=$work/stall-data-$label start_daemon "$notify" "stall-$label" || return 1
    "${rt[@]}" /usr/bin/python3 "$here/scheduler-bus/stall.py" "${STALL_ROUNDS:-5}" "$work/stall-files" >"$work/stall-$label.jsonl" || { stop_daemon; return 1; }
    stop_daemon
  done
  python3 - "$work" <<'EOF'
import json, os, sys
work = sys.argv[1]
print()
print("The longest ListPending of another connection while one client sends a Schedule, per call")
print()
print("| build | call | worst stall during the call | worst before it | ListPending p50 before | the call itself | answer |")
print("|---|---|---|---|---|---|---|")
names = {"largest": "the largest the bounds allow: 1000 requests, 64 kept, 58.5 MB of files",
         "batch1000": "1000 requests, no files", "files64": "64 requests, the same 58.5 MB of files"}
for label in ("before", "after"):
    path = "%s/stall-%s.jsonl" % (work, label)
    if not os.path.exists(path):
        continue
    every = [json.loads(line) for line in open(path)]
    for kind in ("largest", "batch1000", "files64"):
        rounds = [r for r in every if r.get("kind") == kind]
        if not rounds:
            continue
        def worst(key):
            values = [r[key] for r in rounds if r[key] is not None]
            return "%.1f ms (%s)" % (max(values), ", ".join("%.1f" % v for v in values)) if values else "none"
        print("| %s | %s | %s | %s | %.2f ms | %s | %s |" % (
            {"before": "before", "after": "this build"}[label], names[kind], worst("worst_during_ms"),
            worst("worst_before_ms"), sorted(r["p50_before_ms"] for r in rounds)[len(rounds) // 2],
            worst("schedule_ms"), ", ".join(sorted(set(r["answer"].strip() for r in rounds)))))
print()
print("target: the worst stall under 100 ms")
EOF
}

if wants calls || wants concurrent || wants flood || wants stall; then
  eval "$(bash "$root/Tests/Fixtures/private-bus.sh" start "$work/bus" "$work/services")"
fi
if wants calls; then
  calls || { echo "scheduler-bus: failed: calls" >&2; failed=1; }
fi
if wants concurrent; then
  concurrent || { echo "scheduler-bus: failed: concurrent" >&2; failed=1; }
fi
if wants flood; then
  echo
  flood || { echo "scheduler-bus: failed: flood" >&2; failed=1; }
fi
if wants stall; then
  stall || { echo "scheduler-bus: failed: stall" >&2; failed=1; }
fi
if wants transient; then
  transient || { echo "scheduler-bus: failed: transient" >&2; failed=1; }
fi
echo
echo "after: $(load)"
exit "$failed"
