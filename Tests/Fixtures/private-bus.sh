#!/usr/bin/env bash
# A private session dbus-daemon with a service directory, for D-Bus activation tests.
#
#   Tests/Fixtures/private-bus.sh start STATE_DIR SERVICE_DIR
#   Tests/Fixtures/private-bus.sh stop STATE_DIR
#   Tests/Fixtures/private-bus.sh status STATE_DIR
#
# start creates STATE_DIR (and SERVICE_DIR when missing), starts a dbus-daemon of type
# session listening on STATE_DIR/bus whose configuration has <servicedir>SERVICE_DIR</servicedir>,
# and prints, on stdout only,
#   export DBUS_SESSION_BUS_ADDRESS='unix:path=STATE_DIR/bus'
# so `eval "$(Tests/Fixtures/private-bus.sh start "$state" "$services")"` sets up the current
# shell. Run again while the bus runs, it reuses it (same SERVICE_DIR only). stop ends the
# bus daemon and every process it activated (they run in the daemon's session) and removes
# STATE_DIR; SERVICE_DIR is left alone.
#
# A NAME.service file in SERVICE_DIR ([D-BUS Service], Name=NAME, Exec=ABSOLUTE ARGV) makes
# NAME activatable: the first message to NAME starts Exec. Files added or changed after
# start are picked up (the daemon rereads the directory when a name is not found, and on
# inotify). The activated process gets the environment this script was started with, plus
# DBUS_SESSION_BUS_ADDRESS, DBUS_STARTER_ADDRESS and DBUS_STARTER_BUS_TYPE=session set by
# the daemon, with / as its working directory; its stdout and stderr go to STATE_DIR/bus.log.
# A service that has not taken its name within 10 s fails the activating call
# (org.freedesktop.DBus.Error.TimedOut, also when it exited 0); one that fails first, at
# once (org.freedesktop.DBus.Error.Spawn.ChildExited). Exec= is split like a shell line
# (quotes work; no $VAR, no ~).
#
# The policy allows everything (own any name, send anywhere, eavesdrop for dbus-monitor),
# as in .ci/desktop-session.sh. Needs: dbus (dbus-daemon, dbus-send). Diagnostics go to
# stderr and STATE_DIR/bus.log.
set -euo pipefail

command=${1:-}
deadline_seconds=10

say() { printf 'private-bus: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
usage() { die "usage: private-bus.sh start STATE_DIR SERVICE_DIR | stop STATE_DIR | status STATE_DIR"; }

# running PID: the process exists and is not a zombie.
running() {
  [ -r "/proc/$1/status" ] && ! grep -q "^State:[[:space:]]*[ZX]" "/proc/$1/status" 2>/dev/null
}

# alive PIDFILE NAME: the recorded process runs (not a zombie) and is NAME.
alive() {
  [ -s "$1" ] || return 1
  local pid
  pid=$(cat "$1")
  running "$pid" || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

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

not_running() { ! running "$1"; }

# absolute DIR: DIR as an absolute path (dbus-daemon reads a relative servicedir as relative
# to its configuration file, and the daemon itself runs in /).
absolute() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}

# xml_text TEXT: TEXT escaped for an XML element.
xml_text() {
  local s=$1
  s=${s//&/&amp;}
  s=${s//</&lt;}
  s=${s//>/&gt;}
  printf '%s' "$s"
}

bus_answers() {
  dbus-send --bus="unix:path=$state/bus" --print-reply --dest=org.freedesktop.DBus \
    /org/freedesktop/DBus org.freedesktop.DBus.GetId
}

# session_members SID: the processes of session SID other than SID itself (what the bus
# daemon activated; dbus-daemon --fork starts a new session, so nothing else is in it).
session_members() {
  local stat rest pid sid
  for stat in /proc/[0-9]*/stat; do
    # Fields after the command (which may hold spaces): state ppid pgrp session ...
    rest=$(cat "$stat" 2>/dev/null) || continue
    pid=${rest%% *}
    rest=${rest##*) }
    read -r _ _ _ sid _ <<<"$rest" || continue
    [ "$sid" = "$1" ] && [ "$pid" != "$1" ] && printf '%s\n' "$pid"
  done
  return 0
}

none_running() {
  local pid
  for pid in "$@"; do
    ! running "$pid" || return 1
  done
}

start_bus() {
  if alive "$state/bus.pid" dbus-daemon; then
    [ "$(cat "$state/servicedir" 2>/dev/null)" = "$services" ] ||
      die "a bus already runs in $state with service dir $(cat "$state/servicedir" 2>/dev/null); stop it first"
    bus_answers >/dev/null 2>&1 || die "the bus in $state runs but does not answer (see $state/bus.log)"
    return
  fi
  rm -f "$state/bus" "$state/bus.pid" "$state/bus.address" "$state/servicedir"
  cat >"$state/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$(xml_text "$state")/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$(xml_text "$services")</servicedir>
  <!-- A service that never takes its name fails the activating call after 10 s, not 25. -->
  <limit name="service_start_timeout">10000</limit>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
  local output
  # DBUS_DEBUG_OUTPUT keeps the forked daemon's stderr (else /dev/null), which activated
  # services inherit: their tracebacks land in bus.log. stdout is the address pipe only.
  output=$(DBUS_DEBUG_OUTPUT=1 dbus-daemon --config-file="$state/bus.conf" --fork --nopidfile \
    --print-address=1 --print-pid=1 </dev/null 2>>"$state/bus.log") ||
    die "dbus-daemon did not start (see $state/bus.log)"
  grep -q '^unix:' <<<"$output" || die "dbus-daemon printed no address (see $state/bus.log)"
  grep -E '^[0-9]+$' <<<"$output" | head -n1 >"$state/bus.pid"
  alive "$state/bus.pid" dbus-daemon || die "dbus-daemon exited at once (see $state/bus.log)"
  wait_for "$deadline_seconds" bus_answers || die "the bus on $state/bus does not answer (see $state/bus.log)"
  # The address without guid= (clients can reconnect to a restarted daemon at the same path).
  echo "unix:path=$state/bus" >"$state/bus.address"
  printf '%s\n' "$services" >"$state/servicedir"
}

stop_bus() {
  [ -d "$state" ] || return 0
  if alive "$state/bus.pid" dbus-daemon; then
    local pid members
    pid=$(cat "$state/bus.pid")
    members=$(session_members "$pid")
    kill "$pid" 2>/dev/null || true
    wait_for "$deadline_seconds" not_running "$pid" || kill -9 "$pid" 2>/dev/null || true
    # Activated services normally exit when their bus goes; the rest are ended here.
    members="$members $(session_members "$pid")"
    # shellcheck disable=SC2086 # word splitting of the pid list is meant
    if [ -n "${members// /}" ] && ! wait_for 2 none_running $members; then
      kill $members 2>/dev/null || true
      wait_for "$deadline_seconds" none_running $members || kill -9 $members 2>/dev/null || true
    fi
  fi
  rm -rf "$state"
}

case $command in
  start)
    [ $# -eq 3 ] || usage
    for tool in dbus-daemon dbus-send; do
      command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install dbus dbus-bin)"
    done
    state=$(absolute "$2")
    services=$(absolute "$3")
    case "$state$services" in
      *"'"* | *$'\n'*) die "STATE_DIR and SERVICE_DIR may not contain quotes or newlines" ;;
    esac
    mkdir -p -m 700 "$state"
    mkdir -p "$services"
    start_bus
    printf "export DBUS_SESSION_BUS_ADDRESS='%s'\n" "$(cat "$state/bus.address")"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    state=$(absolute "$2")
    stop_bus
    ;;
  status)
    [ $# -eq 2 ] || usage
    state=$(absolute "$2")
    if alive "$state/bus.pid" dbus-daemon; then
      echo "dbus-daemon running (pid $(cat "$state/bus.pid"), services in $(cat "$state/servicedir"))"
      for pid in $(session_members "$(cat "$state/bus.pid")"); do
        echo "activated: $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
      done
    else
      echo "dbus-daemon not running"
      exit 1
    fi
    ;;
  *)
    usage
    ;;
esac
