#!/usr/bin/env bash
# Verifies the units exactly as installed for a user: a throwaway HOME whose
# ~/.local/bin/notify is the built binary, so %h/.local/bin/notify must really exist
# and be executable. systemd-analyze printing anything at all is a failure.
#   usage: units/verify.sh [path/to/notify]   (default: .build/debug/notify)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-.build/debug/notify}")
[ -x "$binary" ] || { echo "units/verify.sh: no executable at $binary: build first (swift build --product notify)"; exit 1; }
home=$(mktemp -d)
runtime=$(mktemp -d)
trap 'rm -rf "$home" "$runtime"' EXIT
mkdir -p "$home/.local/bin"
ln -s "$binary" "$home/.local/bin/notify"
output=$(HOME="$home" XDG_RUNTIME_DIR="$runtime" systemd-analyze verify --user units/*.service units/*.timer 2>&1) || true
if [ -n "$output" ]; then
  echo "$output"
  echo "units/verify.sh: systemd-analyze verify reported the above"
  exit 1
fi
echo "units: verified (systemd-analyze verify --user, no output)"
