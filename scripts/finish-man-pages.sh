#!/usr/bin/env bash
# Finishes the man pages swift-argument-parser's generate-manual wrote (--multi-page):
#
#   scripts/finish-man-pages.sh FROM TO
#
# reads FROM/notify.1 and FROM/notify.*.1 and writes TO/notify.1, TO/notify-SUBCOMMAND.1:
# git-style names (notify.sound.install -> notify-sound-install), no page for `help`, the
# NAME line whatis reads (.Nm notify-sound-install; SYNOPSIS keeps "notify sound install"), the
# real EXIT STATUS in every page (man/exit-status.mdoc, for argument-parser's generic one),
# ENVIRONMENT, FILES and EXAMPLES in notify(1) (man/notify.1.sections), and a paragraph
# break before a discussion's "Examples:" line, whose indented lines follow one a line
# (in --help the same text ends a paragraph there by itself). scripts/install.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
from=${1:?finish-man-pages.sh FROM TO}
to=${2:?finish-man-pages.sh FROM TO}
mkdir -p "$to"
for page in "$from"/notify.1 "$from"/notify.*.1; do
  name=$(basename "$page" .1)
  [ "$name" = notify.help ] && continue
  awk -v sections="man/notify.1.sections" -v exits="man/exit-status.mdoc" -v top="$([ "$name" = notify ] && echo 1)" '
    # git-style names: notify.sound.install -> notify-sound-install
    /^\.Dt / || /^\.Xr notify\./ { gsub(/\./, "-", $2) }
    /^\.Xr notify-help / { next }
    # NAME: a subcommand page names itself as whatis and apropos read it (notify-sound-install:
    # lexgrog takes no quoted words there); SYNOPSIS keeps the command as typed
    /^\.Nm "notify [^"]*"$/ && !named {
      command = substr($0, 5); words = substr(command, 2, length(command) - 2); gsub(/ /, "-", words)
      print ".Nm " words; named = 1; next
    }
    /^\.Nm$/ && command != "" { print ".Nm " command; command = ""; next }
    /^\.Sh "EXIT STATUS"$/ { print; while ((getline line < exits) > 0) print line; skip = 1; next }
    skip && /^\.Ex / { skip = 0; next }
    /^\.Sh "SEE ALSO"$/ && top { while ((getline line < sections) > 0) print line }
    /^Examples:$/ { print ".Pp" }
    { print }
  ' "$page" > "$to/${name//./-}.1"
done
