#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions notify runs, in the order the release link
# puts them first (scripts/release-flags.sh). Run it again after large changes; a stale
# list costs memory and start-up time (BENCHMARKS.md, "Idle cost"; docs/decisions/0066), never correctness:
# names it lists that no longer exist are ignored, and new functions are placed after.
#
#   bash scripts/link-order.sh     about 3 minutes; needs valgrind, xvfb, dbus, dunst
#
# How: a release build with the same flags, stripped of debug info (valgrind cannot read
# its DWARF 5), runs notify's common paths under callgrind, which lists every function
# executed: schedule, list, list --json, now, fire-due, cancel on a store of 64 pending,
# and the daemon, its D-Bus service on and a subscriber listening, starting and delivering
# one notification to stdout and to the desktop (a private headless session). The daemon's functions come first, so the resident process
# touches as few pages as possible; then the rest; each part sorted by name (an order the
# default layout does not have, so .ci/install-check can tell that the list was applied).
# Functions of the toolchain's static libraries share one section per source file (they
# are not built with -function-sections): for those one name per section is enough, which
# keeps the file small.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
command -v valgrind > /dev/null || { echo "link-order.sh: needs valgrind (apt-get install valgrind)" >&2; exit 69; }

work=$(mktemp -d)
chmod 700 "$work"
session=$work/desktop
cleanup() { bash .ci/desktop-session.sh stop "$session" > /dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

source scripts/release-flags.sh
[ -f scripts/link-order.txt ] || : > scripts/link-order.txt
build=(swift build -c release --static-swift-stdlib --product notify --scratch-path .build/link-order
  "${release_flags[@]}" -Xlinker "-Map=$work/notify.map" -Xlinker --no-demangle)
echo "link-order: release build" >&2
release_scratch .build/link-order   # relinked, so that the map is written
"${build[@]}" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
strip -g -o "$work/notify" "$("${build[@]}" --show-bin-path)/notify"
bin=$work/notify

eval "$(NOTIFY_SESSION_DISPLAY=auto bash .ci/desktop-session.sh start "$session")"
export DBUS_SESSION_BUS_ADDRESS DISPLAY
export NOTIFY_DB=$work/store/notify.db
for i in $(seq 63); do
  "$bin" schedule --app "a$((i % 3))" --id "n$i" --in "$((i + 1))h" --title "t $i" --body b > /dev/null
done
"$bin" schedule --app a0 --id daily --at 09:00 --repeat day --title d > /dev/null

traced() { # NAME ARGS...: one run under callgrind
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.cg" "$bin" "$@" \
    > "$work/$name.out" 2> "$work/$name.err"
}
echo "link-order: commands under callgrind" >&2
traced schedule schedule --app cli --in 1h --title hello --body world
traced list list
traced list-json list --json
traced now now --app cli --title now --sink stdout
traced fire-due fire-due --sink stdout
traced cancel cancel --app cli --all
for sink in stdout desktop; do
  echo "link-order: the daemon delivering to $sink under callgrind" >&2
  # (waking: the alarm timer's arming is on the daemon's path too, where it may hold one)
  "$bin" schedule --app d --id "due-$sink" --in 20s --title due --wake > /dev/null 2>&1
  # (with its D-Bus service on, as the installed unit runs it, and a subscriber of the app:
  # the service's calls and its Delivered signal are on the daemon's path too)
  NOTIFY_SCHEDULER=on valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/daemon-$sink.cg" \
    "$bin" daemon --sink "$sink" > "$work/daemon-$sink.out" 2> "$work/daemon-$sink.err" &
  daemon=$!
  deadline=$((SECONDS + 120))
  until gdbus introspect --session --dest io.github.notify.Scheduler1 \
    --object-path /io/github/notify/Scheduler1 > /dev/null 2>&1; do
    ((SECONDS < deadline)) || { echo "link-order: the daemon's service did not come up in 120 s" >&2; exit 1; }
    sleep 0.5
  done
  /usr/bin/python3 Benchmarks/delivered_listener.py d "$work/heard-$sink" > "$work/listener-$sink" 2>&1 &
  listener=$!
  until "$bin" history --app d | grep -q "due-$sink"; do
    ((SECONDS < deadline)) || { echo "link-order: the daemon delivered nothing in 120 s" >&2; exit 1; }
    sleep 0.5
  done
  kill -TERM "$listener" "$daemon"
  wait "$listener" "$daemon" || true
done

python3 - "$work" "$root/scripts/link-order.txt" << 'EOF'
import glob, os, re, sys
work, target = sys.argv[1], sys.argv[2]

def executed(path):
    """Names of the executable's functions that a callgrind file saw run."""
    names, tables, obj, callee_obj = set(), {"ob": {}, "fn": {}}, None, None
    for line in open(path, errors="replace"):
        m = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        callee, kind, ident, name = m.groups()
        if name is not None:
            tables[kind][ident] = name.split("'")[0]
        name = tables[kind][ident]
        if kind == "ob":
            if callee: callee_obj = name
            else: obj, callee_obj = name, None
        else:
            owner = (callee_obj or obj) if callee else obj
            if owner and owner.endswith("/notify") and not name.startswith("0x"):
                names.add(name)
            if callee: callee_obj = None
    return names

# lld's map: input sections ("file:(section)") each followed by the symbols it defines.
section_of = {}
section = None
for line in open(os.path.join(work, "notify.map")):
    parts = line.split()
    if len(parts) < 5 or not re.fullmatch(r"[0-9a-f]+", parts[0]):
        continue
    rest = line.split(None, 4)[4].strip()
    if rest.endswith(")") and ":(" in rest:
        section = rest
    elif section and not rest.startswith("<") and " " not in rest:
        section_of.setdefault(rest, section)

files = glob.glob(os.path.join(work, "*.cg"))
daemon = set().union(*(executed(f) for f in files if "daemon-" in f))
others = set().union(*(executed(f) for f in files if "daemon-" not in f)) - daemon
placed, lines = set(), []
for group in (daemon, others):
    for name in sorted(group):
        where = section_of.get(name)
        if where is None or where in placed:
            continue
        placed.add(where)
        lines.append(name)
with open(target, "w") as out:
    out.write("\n".join(lines) + "\n")
print(f"link-order: {len(lines)} sections ({len(daemon)} functions the daemon runs, "
      f"{len(others)} more the commands run) -> {target}", file=sys.stderr)
EOF
