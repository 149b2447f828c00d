#!/usr/bin/env bash
# A real `systemd --user` for tests, in a private mount namespace of its own, as the test
# user (default notify-test; NOTIFY_TEST_USER names another). Run as root.
#
#   Tests/Fixtures/user-manager.sh check
#   Tests/Fixtures/user-manager.sh start STATE_DIR
#   Tests/Fixtures/user-manager.sh run STATE_DIR [--root] -- COMMAND [ARGUMENT...]
#   Tests/Fixtures/user-manager.sh logout STATE_DIR | login STATE_DIR
#   Tests/Fixtures/user-manager.sh grant STATE_DIR CAPABILITY
#   Tests/Fixtures/user-manager.sh stop STATE_DIR
#
# check exits 0 when a user manager can be started here, else prints why on stderr and
# exits 77: not root, a tool missing (unshare, nsenter, setpriv, systemd, systemd-journald,
# dbus-daemon with dbus-user-session's user units), no test user (`bash .ci/install-packages`
# creates it), no mount namespace, or no cgroup hierarchy this script may create cgroups in.
# start runs the same checks first (and exits 77 the same way).
#
# start makes STATE_DIR and, in a new mount namespace (unshare --mount --propagation
# private) kept alive by a holder process: tmpfs on /run/systemd (with an empty
# /run/systemd/system, so that tools take systemd for running), /run/log, /var/log/journal,
# /run/user (the runtime dir /run/user/UID, 0700) and the test user's home (from passwd;
# a fresh empty one per start, with a D-Bus service file that hides the installed
# notification servers: see hide_notification_servers); a systemd-journald of its own
# (its own messages at notice and above: they go to the kernel log), flushed to
# /var/log/journal so that the user's entries go to user-UID.journal, which `journalctl
# --user` reads as that user; a delegated cgroup SLICE/user@UID.service (chowned to the
# user) in every hierarchy systemd uses here (cgroup v2, and v1's name=systemd in the
# hybrid layout), where SLICE is notify-um-RANDOM.slice, unique to this start; and
# `/lib/systemd/systemd --user --log-target=journal` as the user (setpriv --reuid --regid
# --init-groups, env -i with HOME, USER, LOGNAME, PATH, LANG and XDG_RUNTIME_DIR). The mount
# points are made when missing (empty folders, as systemd makes them). It returns once
# `systemctl --user is-system-running --wait` has answered (running or degraded) and the
# user bus of dbus-user-session listens at $XDG_RUNTIME_DIR/bus, and prints, on stdout only,
#   export XDG_RUNTIME_DIR='/run/user/UID'; export DBUS_SESSION_BUS_ADDRESS='unix:path=/run/user/UID/bus'
#   export HOME='…'; export NOTIFY_USER_MANAGER_PID=HOLDER  (for nsenter -t HOLDER -m)
# These paths exist inside the namespace only. Waits end on the event; the deadline
# (NOTIFY_USER_MANAGER_TIMEOUT seconds, default 60) bounds a hang. A start that fails
# past the checks cleans up, prints why (with the logs' tail) and exits 1.
#
# run runs COMMAND inside the namespace as the test user with the manager's environment
# (HOME, USER, LOGNAME, PATH with ~/.local/bin first, LANG, XDG_RUNTIME_DIR,
# DBUS_SESSION_BUS_ADDRESS) and nothing else, in HOME; --root runs it as root (same
# namespace, PATH and LANG only, in /). Its cgroup is SLICE/run.scope, so that stop ends
# whatever it leaves running. Its exit status is COMMAND's.
#
# logout stops the user manager (SIGTERM: it starts exit.target, stopping every unit) and
# waits until it has exited; login starts it again in the same namespace, with the same
# home and journal, and waits for readiness as start does: what a user's next login does.
#
# grant gives the user manager CAPABILITY (a name as setpriv takes it: wake_alarm) as an
# ambient capability from its next login on, as `AmbientCapabilities=` in user@.service
# does (systemd 254 and later give it CAP_WAKE_ALARM so; an administrator's drop-in gives
# it on older ones): the manager starts with it in its inheritable and ambient sets, and
# can pass it on to a unit that asks (`AmbientCapabilities=` of the user unit). Kept in
# STATE_DIR/ambient.
#
# stop stops the manager as logout does, then ends every process left in SLICE (the
# holder, journald, what run left behind: cgroup.kill, or SIGKILL to each process where
# the kernel has no cgroup.kill), removes SLICE's cgroups and STATE_DIR. The namespace and
# its mounts go with its last process. stop on a STATE_DIR that is gone, or half started,
# does what is left to do.
#
# Files in STATE_DIR: slice, holder.pid, manager.pid, ready (is-system-running's answer),
# holder.log (the namespace's setup, journald's and the manager's stderr).
#
# Several starts on one machine share nothing but the test user: each has its own
# namespace (runtime dir, home, journal, bus) and its own SLICE. Needs: util-linux
# (unshare, nsenter, setpriv), systemd, dbus-user-session, and the test user.
set -euo pipefail

command=${1:-}
user=${NOTIFY_TEST_USER:-notify-test}
deadline_seconds=${NOTIFY_USER_MANAGER_TIMEOUT:-60}
systemd_binary=/lib/systemd/systemd
journald_binary=/lib/systemd/systemd-journald
cannot_run=77

say() { printf 'user-manager: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
skip() { say "$*"; exit "$cannot_run"; }
usage() {
  die "usage: user-manager.sh check | start STATE_DIR | run STATE_DIR [--root] -- COMMAND... | logout STATE_DIR | login STATE_DIR | grant STATE_DIR CAPABILITY | stop STATE_DIR"
}

# running PID: the process exists and is not a zombie.
running() {
  [ -r "/proc/$1/status" ] && ! grep -q "^State:[[:space:]]*[ZX]" "/proc/$1/status" 2>/dev/null
}
not_running() { ! running "$1"; }

# wait_for SECONDS COMMAND...: polls COMMAND every 50 ms until it succeeds or time runs out.
wait_for() {
  local limit=$(($1 * 20))
  shift
  local i=0
  until "$@" >/dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -lt "$limit" ] || return 1
    sleep 0.05
  done
}

absolute() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}

# The test user: uid, gid and home from passwd.
read_user() {
  local entry
  entry=$(getent passwd "$user") || return 1
  IFS=: read -r _ _ uid gid _ home _ <<<"$entry"
  runtime_dir=/run/user/$uid
}

# The cgroup hierarchies systemd uses here, as the directories their roots are mounted on:
# unified (cgroup v2: /sys/fs/cgroup itself, or /sys/fs/cgroup/unified in the hybrid
# layout) and legacy (v1's name=systemd, in the hybrid and the legacy layout). systemd
# keeps its units' cgroups in the first it finds (cgroup v2 when there is one) and mirrors
# them into name=systemd in the hybrid layout: both are delegated.
find_hierarchies() {
  hierarchies=()
  local type
  type=$(stat -f -c %T /sys/fs/cgroup 2>/dev/null) || return 0
  if [ "$type" = cgroup2fs ]; then
    hierarchies=(/sys/fs/cgroup)
    return 0
  fi
  [ "$(stat -f -c %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ] && hierarchies+=(/sys/fs/cgroup/unified)
  [ "$(stat -f -c %T /sys/fs/cgroup/systemd 2>/dev/null)" = cgroupfs ] && hierarchies+=(/sys/fs/cgroup/systemd)
  return 0
}

check() {
  [ "$(id -u)" = 0 ] || skip "needs root (to unshare a mount namespace, mount tmpfs, delegate a cgroup and setpriv to the test user)"
  local tool
  for tool in unshare nsenter setpriv getent timeout; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install util-linux)"
  done
  for tool in systemctl journalctl; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install systemd)"
  done
  [ -x "$systemd_binary" ] && [ -x "$journald_binary" ] || skip "no $systemd_binary or $journald_binary (apt-get install systemd)"
  command -v dbus-daemon >/dev/null && [ -f /usr/lib/systemd/user/dbus.socket ] \
    || skip "no user bus units (apt-get install dbus-user-session)"
  read_user || skip "no user '$user' to run systemd --user as (bash .ci/install-packages creates it)"
  [ "$uid" != 0 ] || skip "the test user '$user' is root; the user manager must run as a normal user"
  [ -d "$home" ] || skip "the test user's home $home does not exist (bash .ci/install-packages makes it)"
  local output
  output=$(unshare --mount --propagation private true 2>&1) || skip "cannot unshare a mount namespace: $output"
  find_hierarchies
  [ ${#hierarchies[@]} -gt 0 ] || skip "no cgroup hierarchy for systemd (neither cgroup v2 nor v1's name=systemd under /sys/fs/cgroup)"
  local probe=notify-um-probe-$$-$RANDOM.slice hierarchy
  for hierarchy in "${hierarchies[@]}"; do
    output=$(mkdir "$hierarchy/$probe" 2>&1) || skip "cannot create a cgroup in $hierarchy (no delegation here): $output"
    rmdir "$hierarchy/$probe"
  done
}

# The state of a start: STATE_DIR's files.
load_state() {
  state=$(absolute "$1")
  slice=$(cat "$state/slice" 2>/dev/null || true)
  # The slice is removed recursively by stop: only a name this script made is accepted.
  [[ $slice =~ ^notify-um-[A-Za-z0-9]+\.slice$ ]] || slice=""
  holder=$(cat "$state/holder.pid" 2>/dev/null || true)
  read_user || die "no user '$user'"
  find_hierarchies
}

# join_cgroup NAME: moves this shell into SLICE/NAME in every hierarchy.
join_cgroup() {
  local hierarchy
  for hierarchy in "${hierarchies[@]}"; do
    mkdir -p "$hierarchy/$slice/$1"
    echo $$ >"$hierarchy/$slice/$1/cgroup.procs"
  done
}

# The user's environment, for env -i.
user_environment() {
  printf '%s\n' "HOME=$home" "USER=$user" "LOGNAME=$user" "LANG=C.UTF-8" \
    "PATH=$home/.local/bin:/usr/local/bin:/usr/bin:/bin" "XDG_RUNTIME_DIR=$runtime_dir" \
    "DBUS_SESSION_BUS_ADDRESS=unix:path=$runtime_dir/bus"
}

# as_user COMMAND...: COMMAND as the test user with the user's environment (inside the
# namespace already).
as_user() {
  local environment
  mapfile -t environment < <(user_environment)
  setpriv --reuid "$uid" --regid "$gid" --init-groups env -i -C "$home" "${environment[@]}" "$@"
}

# ---- inside the namespace ------------------------------------------------------------

# start_manager: systemd --user as the user, in SLICE/user@UID.service, not a child of
# this shell (the holder waits for nobody; PID 1 reaps it), then waits until it is up.
start_manager() {
  local hierarchy cgroup=user@$uid.service
  for hierarchy in "${hierarchies[@]}"; do
    mkdir -p "$hierarchy/$slice/$cgroup"
    chown -R "$uid:$gid" "$hierarchy/$slice/$cgroup"
  done
  rm -f "$state/manager.pid" "$state/ready"
  (
    (
      for hierarchy in "${hierarchies[@]}"; do
        echo "$BASHPID" >"$hierarchy/$slice/$cgroup/cgroup.procs"
      done
      echo "$BASHPID" >"$state/manager.pid"
      local caps=()
      if [ -s "$state/ambient" ]; then
        local granted
        granted=$(cat "$state/ambient")
        caps=(--inh-caps "+$granted" --ambient-caps "+$granted")
      fi
      exec setpriv --reuid "$uid" --regid "$gid" --init-groups "${caps[@]}" env -i -C "$home" \
        HOME="$home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
        XDG_RUNTIME_DIR="$runtime_dir" "$systemd_binary" --user --log-target=journal
    ) </dev/null >>"$state/holder.log" 2>&1 &
  )
  wait_for 10 test -s "$state/manager.pid" || { echo "failed: systemd --user did not start" >"$state/failed"; return 1; }
  local manager
  manager=$(cat "$state/manager.pid")
  # Up: its private socket answers, and the start-up jobs (default.target) are done.
  local i=0 limit=$((deadline_seconds * 20))
  until [ -S "$runtime_dir/systemd/private" ] && as_user systemctl --user show -p Version --value >/dev/null 2>&1; do
    running "$manager" || { echo "failed: systemd --user exited during start-up" >"$state/failed"; return 1; }
    i=$((i + 1))
    [ "$i" -lt "$limit" ] || { echo "failed: systemd --user did not answer within $deadline_seconds s" >"$state/failed"; return 1; }
    sleep 0.05
  done
  local answer
  answer=$(as_user timeout "$deadline_seconds" systemctl --user is-system-running --wait 2>&1) || true
  case $answer in
    running | degraded) ;;
    *) echo "failed: systemctl --user is-system-running --wait answered '$answer'" >"$state/failed"; return 1 ;;
  esac
  [ -S "$runtime_dir/bus" ] || { echo "failed: no user bus at $runtime_dir/bus (dbus-user-session's dbus.socket)" >"$state/failed"; return 1; }
  echo "$answer" >"$state/ready"
}

# hide_notification_servers: no notification server is D-Bus-activatable on the user's
# bus, as on a headless login. An installed one (dunst's org.knopwob.dunst.service) would
# be activated by the first call to org.freedesktop.Notifications, fail without a display,
# and hold every call to the name until dbus-daemon's activation timeout (2 min). A file
# of the user's (searched first) names a unit that does not exist, so such a call fails at
# once; a server started by hand (systemd-run --user dunst) takes the name all the same.
hide_notification_servers() {
  local services=$home/.local/share/dbus-1/services
  mkdir -p "$services"
  printf '%s\n' '[D-BUS Service]' 'Name=org.freedesktop.Notifications' 'Exec=/bin/false' \
    'SystemdService=notify-um-no-notification-server.service' >"$services/org.freedesktop.Notifications.service"
  chown -R "$uid:$gid" "$home/.local"
}

# The holder: sets up the namespace, starts journald and the manager, then sleeps until
# stop ends it. Runs as `unshare --mount --propagation private bash user-manager.sh inside`.
inside() {
  load_state "$1"
  join_cgroup holder.scope
  mount -t tmpfs -o mode=0755,size=64m notify-um /run/systemd
  mkdir -p /run/systemd/system /run/systemd/journal
  mount -t tmpfs -o mode=0755,size=64m notify-um /run/log
  local journal_group
  journal_group=$(getent group systemd-journal | cut -d: -f3)
  mount -t tmpfs -o mode=2755,size=64m,gid="${journal_group:-0}" notify-um /var/log/journal
  mount -t tmpfs -o mode=0755,size=64m notify-um /run/user
  mkdir -m 0700 "$runtime_dir"
  chown "$uid:$gid" "$runtime_dir"
  mount -t tmpfs -o mode=0700,size=512m,uid="$uid",gid="$gid" notify-um "$home"
  hide_notification_servers

  # (its own messages go to the kernel log, which every journald reads: only notices)
  SYSTEMD_LOG_LEVEL=notice "$journald_binary" </dev/null &
  wait_for "$deadline_seconds" test -S /run/systemd/journal/socket \
    || { echo "failed: systemd-journald did not start" >"$state/failed"; exit 1; }
  # From now on to /var/log/journal, with a journal file per user the user may read.
  # (journald makes its varlink socket, which --flush calls, after the socket above: on a
  # loaded machine the first --flush can come before it, so it is tried until it answers)
  wait_for "$deadline_seconds" timeout "$deadline_seconds" journalctl --flush \
    || { echo "failed: journalctl --flush: $(journalctl --flush 2>&1)" >"$state/failed"; exit 1; }

  start_manager || exit 1
  exec sleep infinity
}

# ---- outside ------------------------------------------------------------------------

start() {
  check
  state=$(absolute "$1")
  case $state in *"'"* | *$'\n'*) die "STATE_DIR may not contain quotes or newlines" ;; esac
  mkdir -p -m 700 "$state"
  [ ! -s "$state/holder.pid" ] || ! running "$(cat "$state/holder.pid")" \
    || die "a user manager already runs in $state; stop it first"
  rm -f "$state/failed" "$state/ready" "$state/manager.pid"
  # The mount points (systemd makes them at boot; a machine where it does not run may
  # lack them): empty folders, each covered by a tmpfs inside the namespace.
  mkdir -p /run/systemd /run/log /run/user /var/log/journal
  printf 'notify-um-%s.slice\n' "$(tr -dc 'A-Za-z0-9' </dev/urandom | head -c 12)" >"$state/slice"
  setsid unshare --mount --propagation private bash "$0" inside "$state" </dev/null >>"$state/holder.log" 2>&1 &
  local holder=$!
  echo "$holder" >"$state/holder.pid"
  local i=0 limit=$((deadline_seconds * 20 + 100))
  until [ -e "$state/ready" ] || [ -e "$state/failed" ] || not_running "$holder"; do
    i=$((i + 1))
    [ "$i" -lt "$limit" ] || { echo "failed: not ready within $deadline_seconds s" >"$state/failed"; break; }
    sleep 0.05
  done
  if [ ! -e "$state/ready" ]; then
    local why
    why=$(cat "$state/failed" 2>/dev/null || echo "failed: the namespace's holder exited")
    say "${why#failed: }; the log's end:"
    tail -n 30 "$state/holder.log" >&2 || true
    stop "$state" || true
    exit 1
  fi
  read_user
  printf "export XDG_RUNTIME_DIR='%s'; export DBUS_SESSION_BUS_ADDRESS='unix:path=%s/bus'\n" "$runtime_dir" "$runtime_dir"
  printf "export HOME='%s'; export NOTIFY_USER_MANAGER_PID=%s\n" "$home" "$holder"
}

# enter_namespace: checks that the holder runs (nsenter joins its mount namespace).
holder_running() {
  [ -n "$holder" ] && running "$holder" || die "no user manager runs in $state (start it first)"
}

run() {
  load_state "$1"
  shift
  local as=user
  if [ "${1:-}" = --root ]; then as=root; shift; fi
  [ "${1:-}" = -- ] || usage
  shift
  [ $# -gt 0 ] || usage
  holder_running
  [ -n "$slice" ] && join_cgroup run.scope
  if [ "$as" = root ]; then
    exec nsenter --target "$holder" --mount -- env -i -C / HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
  fi
  local environment
  mapfile -t environment < <(user_environment)
  exec nsenter --target "$holder" --mount -- setpriv --reuid "$uid" --regid "$gid" --init-groups \
    env -i -C "$home" "${environment[@]}" "$@"
}

# stop_manager: SIGTERM (exit.target: every unit stopped within its TimeoutStopSec=), then
# waits for its exit; SIGKILL past the deadline.
stop_manager() {
  local manager
  manager=$(cat "$state/manager.pid" 2>/dev/null || true)
  [ -n "$manager" ] && running "$manager" || return 0
  kill -TERM "$manager" 2>/dev/null || true
  wait_for "$deadline_seconds" not_running "$manager" || { say "systemd --user did not exit within $deadline_seconds s: killed"; kill -KILL "$manager" 2>/dev/null || true; }
}

logout() {
  load_state "$1"
  holder_running
  stop_manager
  rm -f "$state/ready"
}

login() {
  load_state "$1"
  holder_running
  local manager
  manager=$(cat "$state/manager.pid" 2>/dev/null || true)
  [ -z "$manager" ] || not_running "$manager" || die "the user manager runs (logout first)"
  rm -f "$state/failed"
  # Started from inside the namespace, as the holder started the first one.
  nsenter --target "$holder" --mount -- bash "$0" _login "$state" || {
    say "$(cat "$state/failed" 2>/dev/null || echo "login failed")"
    exit 1
  }
}

# cgroup_pids DIR: every process in DIR and below.
cgroup_pids() {
  find "$1" -name cgroup.procs -exec cat {} + 2>/dev/null || true
}

cgroup_empty() { [ -z "$(cgroup_pids "$1")" ]; }

stop() {
  load_state "$1"
  [ -d "$state" ] || return 0
  stop_manager
  if [ -n "$slice" ]; then
    local hierarchy dir
    for hierarchy in "${hierarchies[@]}"; do
      dir=$hierarchy/$slice
      [ -d "$dir" ] || continue
      if [ -e "$dir/cgroup.kill" ]; then
        echo 1 >"$dir/cgroup.kill" 2>/dev/null || true
      else
        # shellcheck disable=SC2046 # one pid a word
        kill -KILL $(cgroup_pids "$dir") 2>/dev/null || true
      fi
      wait_for "$deadline_seconds" cgroup_empty "$dir" || say "processes left in $dir: $(cgroup_pids "$dir" | tr '\n' ' ')"
      find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null || say "could not remove $dir"
    done
  fi
  # The holder (and with it the namespace) went with the slice; a holder that never joined
  # it (a start that failed early) is ended here.
  if [ -n "$holder" ] && running "$holder" && tr '\0' ' ' <"/proc/$holder/cmdline" | grep -q "user-manager.sh inside $state"; then
    kill -KILL "$holder" 2>/dev/null || true
  fi
  [ -z "$holder" ] || wait_for "$deadline_seconds" not_running "$holder" || say "the holder $holder did not exit"
  rm -rf "$state"
}

grant() {
  load_state "$1"
  [[ $2 =~ ^[a-z_]+$ ]] || die "grant: '$2' is not a capability name such as wake_alarm"
  printf '%s\n' "$2" >"$state/ambient"
}

case $command in
  grant)
    [ $# -eq 3 ] || usage
    grant "$2" "$3"
    ;;
  check)
    [ $# -eq 1 ] || usage
    check
    ;;
  start)
    [ $# -eq 2 ] || usage
    start "$2"
    ;;
  run)
    [ $# -ge 4 ] || usage
    run "${@:2}"
    ;;
  logout)
    [ $# -eq 2 ] || usage
    logout "$2"
    ;;
  login)
    [ $# -eq 2 ] || usage
    login "$2"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    stop "$2"
    ;;
  inside)
    inside "$2"
    ;;
  _login)
    load_state "$2"
    start_manager
    ;;
  *)
    usage
    ;;
esac
