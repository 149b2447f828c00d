#!/usr/bin/env bash
# remind.sh: reminders from the shell with the notify command.
#
#   examples/remind.sh 10m "Tea is ready"     schedule; prints the id
#   examples/remind.sh list                   what is pending for the app
#   examples/remind.sh cancel ID              cancel one
#   examples/remind.sh clear                  cancel all
#
# Reminders belong to the app "remind" (override with NOTIFY_APP) in the usual store
# (NOTIFY_DB). They are fired by `notify daemon` (see units/), or by `notify fire-due`
# from a timer; this script only talks to the store, so it returns at once.
set -euo pipefail

notify=${NOTIFY:-notify}
export NOTIFY_APP=${NOTIFY_APP:-remind}

usage() {
  sed -n '4,7p' "$0" | sed 's/^#   //' >&2
  exit 64
}

[ $# -ge 1 ] || usage
case "$1" in
  list)
    exec "$notify" list
    ;;
  cancel)
    [ $# -ge 2 ] || usage
    shift
    exec "$notify" cancel "$@"
    ;;
  clear)
    exec "$notify" cancel --all
    ;;
  *)
    [ $# -eq 2 ] || usage
    # --in takes 90s, 10m, 2h, 1d and sums such as 1h30m; notify checks it (exit 65 if bad).
    exec "$notify" schedule --in "$1" --title Reminder --sound default -- "$2"
    ;;
esac
