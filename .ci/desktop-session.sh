#!/usr/bin/env bash
# A headless desktop for tests and CI: Xvfb, a private session dbus-daemon and dunst.
#
#   .ci/desktop-session.sh [start|stop|status] [STATE_DIR]
#
# start (the default) starts whatever is not running yet and prints, on stdout only,
#   export DBUS_SESSION_BUS_ADDRESS='unix:path=STATE_DIR/bus'; export DISPLAY=':99'
# so `eval "$(.ci/desktop-session.sh)"` sets up the current shell. It is idempotent: run it
# again and it reuses what runs and restarts what died (a test kills dunst or the bus
# daemon, then calls start again). stop ends the processes it started and removes STATE_DIR.
#
# STATE_DIR defaults to $NOTIFY_SESSION_DIR, else to $NOTIFY_CI_TMP/desktop inside a
# `.ci/run` (its own temporary folder), else start makes a new one with mktemp (under
# $XDG_RUNTIME_DIR, or /tmp) and adds `export NOTIFY_SESSION_DIR='…'` to what it prints, so
# that start, stop and status in the same shell find it again: no fixed name is shared by
# two sessions on one machine. Environment:
#   NOTIFY_SESSION_DISPLAY  X display to use (default :99; an Xvfb already serving it is
#                           reused and left running); `auto` starts an Xvfb on a free one.
#   NOTIFY_DUNSTRC          dunst configuration (default: a test-friendly one written to
#                           STATE_DIR: no timeouts, no stacking, long history).
#
# The bus has no activatable services, so when dunst is down nobody answers on
# org.freedesktop.Notifications (tests rely on that). Needs: xvfb, dbus (dbus-daemon,
# dbus-send), dunst. Diagnostics go to stderr and STATE_DIR/*.log.
set -euo pipefail

command=${1:-start}
state=${2:-${NOTIFY_SESSION_DIR:-}}
[ -n "$state" ] || [ -z "${NOTIFY_CI_TMP:-}" ] || state=$NOTIFY_CI_TMP/desktop
display_wanted=${NOTIFY_SESSION_DISPLAY:-:99}
# How long each part may take to come up. Waits end as soon as it is up; the bound is for
# a machine busy with a parallel test run, where a restarted dunst once took over 10 s.
deadline_seconds=30

say() { printf 'desktop-session: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# running PID: the process exists and is not a zombie (nobody may reap it soon).
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

# stop_pid PIDFILE NAME: ends the recorded process and waits until it is gone.
stop_pid() {
  if alive "$1" "$2"; then
    local pid
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || true
    wait_for "$deadline_seconds" not_running "$pid" ||
      kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}

display_serving() {
  # A display is served when something listens on its socket (a stale socket file does not
  # count). Xvfb does not always write /tmp/.XN-lock, so the lock is not consulted.
  grep -q " /tmp/.X11-unix/X${1#:}\$" /proc/net/unix
}

start_xvfb() {
  if [ -s "$state/display" ] && { alive "$state/xvfb.pid" Xvfb || display_serving "$(cat "$state/display")"; }; then
    return
  fi
  rm -f "$state/xvfb.pid" "$state/display"
  if [ "$display_wanted" = auto ]; then
    : >"$state/display.fd"
    Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$state/display.fd" \
      </dev/null >>"$state/xvfb.log" 2>&1 &
    echo $! >"$state/xvfb.pid"
    wait_for "$deadline_seconds" test -s "$state/display.fd" ||
      die "Xvfb did not start (see $state/xvfb.log)"
    echo ":$(tr -d '[:space:]' <"$state/display.fd")" >"$state/display"
  elif display_serving "$display_wanted"; then
    say "reusing the X server on $display_wanted"
    echo "$display_wanted" >"$state/display"
    return
  else
    Xvfb "$display_wanted" -screen 0 1024x768x24 -nolisten tcp </dev/null >>"$state/xvfb.log" 2>&1 &
    echo $! >"$state/xvfb.pid"
    echo "$display_wanted" >"$state/display"
  fi
  wait_for "$deadline_seconds" display_serving "$(cat "$state/display")" ||
    die "Xvfb did not start on $(cat "$state/display") (see $state/xvfb.log)"
}

start_bus() {
  if alive "$state/bus.pid" dbus-daemon && [ -s "$state/bus.address" ]; then
    return
  fi
  rm -f "$state/bus" "$state/bus.pid" "$state/bus.address"
  cat >"$state/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$state/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
  local output
  output=$(dbus-daemon --config-file="$state/bus.conf" --fork --nopidfile --print-address=1 --print-pid=1 \
    </dev/null 2>>"$state/bus.log") || die "dbus-daemon did not start (see $state/bus.log)"
  grep -q '^unix:' <<<"$output" || die "dbus-daemon printed no address (see $state/bus.log)"
  # The address without guid= (like systemd's /run/user/UID/bus): clients can reconnect to a
  # restarted daemon at the same path.
  echo "unix:path=$state/bus" >"$state/bus.address"
  grep -E '^[0-9]+$' <<<"$output" | head -n1 >"$state/bus.pid"
  alive "$state/bus.pid" dbus-daemon || die "dbus-daemon exited at once (see $state/bus.log)"
}

notifications_owned() {
  dbus-send --bus="$(cat "$state/bus.address")" --print-reply --dest=org.freedesktop.DBus \
    /org/freedesktop/DBus org.freedesktop.DBus.GetNameOwner string:org.freedesktop.Notifications
}

start_dunst() {
  if alive "$state/dunst.pid" dunst; then
    return
  fi
  rm -f "$state/dunst.pid"
  local config=${NOTIFY_DUNSTRC:-$state/dunstrc}
  # dunst's context menu (`dunstctl context`) runs this in place of dmenu: it picks the first
  # offered line that contains the text in STATE/dmenu-pick (tests write it, then call
  # `dunstctl context`, which invokes that action as a click on the button would), and
  # appends what it was offered to STATE/dmenu-offered.
  cat >"$state/dmenu" <<EOF
#!/bin/sh
offered=\$(cat)
printf '%s\\n' "\$offered" >>"$state/dmenu-offered"
pick=\$(cat "$state/dmenu-pick" 2>/dev/null)
[ -n "\$pick" ] && printf '%s\\n' "\$offered" | grep -F -m1 -- "\$pick"
exit 0
EOF
  chmod 0755 "$state/dmenu"
  if [ -z "${NOTIFY_DUNSTRC:-}" ]; then
    cat >"$config" <<EOF
# Written by .ci/desktop-session.sh: deterministic for tests.
[global]
    dmenu = $state/dmenu
    history_length = 1000
    stack_duplicates = false
    show_age_threshold = -1
    markup = full
    idle_threshold = 0
[urgency_low]
    timeout = 0
[urgency_normal]
    timeout = 0
[urgency_critical]
    timeout = 0
EOF
  fi
  DISPLAY=$(cat "$state/display") DBUS_SESSION_BUS_ADDRESS=$(cat "$state/bus.address") \
    dunst -config "$config" </dev/null >>"$state/dunst.log" 2>&1 &
  echo $! >"$state/dunst.pid"
  if ! wait_for "$deadline_seconds" notifications_owned; then
    tail -n 20 "$state/dunst.log" >&2 || true
    die "dunst did not take org.freedesktop.Notifications (see $state/dunst.log)"
  fi
}

case $command in
  start)
    for tool in Xvfb dbus-daemon dbus-send dunst; do
      command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install xvfb dbus dunst)"
    done
    made_here=
    if [ -z "$state" ]; then
      state=$(mktemp -d "${XDG_RUNTIME_DIR:-/tmp}/notify-desktop-session.XXXXXX")
      made_here=1
    fi
    mkdir -p -m 700 "$state"
    start_xvfb
    start_bus
    start_dunst
    printf "export DBUS_SESSION_BUS_ADDRESS='%s'; export DISPLAY='%s'" \
      "$(cat "$state/bus.address")" "$(cat "$state/display")"
    [ -z "$made_here" ] || printf "; export NOTIFY_SESSION_DIR='%s'" "$state"
    printf '\n'
    ;;
  stop)
    [ -n "$state" ] || die "which session? pass STATE_DIR or set NOTIFY_SESSION_DIR (start prints it)"
    [ -d "$state" ] || exit 0
    stop_pid "$state/dunst.pid" dunst
    stop_pid "$state/bus.pid" dbus-daemon
    stop_pid "$state/xvfb.pid" Xvfb
    rm -rf "$state"
    ;;
  status)
    [ -n "$state" ] || die "which session? pass STATE_DIR or set NOTIFY_SESSION_DIR (start prints it)"
    for entry in dunst:dunst bus:dbus-daemon xvfb:Xvfb; do
      if alive "$state/${entry%%:*}.pid" "${entry#*:}"; then
        echo "${entry#*:} running (pid $(cat "$state/${entry%%:*}.pid"))"
      else
        echo "${entry#*:} not running"
      fi
    done
    ;;
  *)
    die "usage: desktop-session.sh [start|stop|status] [STATE_DIR]"
    ;;
esac
