#!/usr/bin/env bash
# Installs notify for a user (or into a package tree), or removes exactly what it installed.
#
#   scripts/install.sh [install|uninstall] [--prefix DIR] [--destdir DIR] [--no-enable]
#                      [--binary PATH] [--man-pages DIR]
#
# install (the default) builds the release binary as units/README.md recommends
# (`swift build -c release --static-swift-stdlib` with the link layout of
# scripts/release-flags.sh) and installs, under PREFIX (default
# ~/.local):
#   bin/notify                                        the program (0755)
#   share/man/man1/notify.1, notify-SUBCOMMAND.1      man pages (argument-parser's generate-manual)
#   share/bash-completion/completions/notify          completions, from the program itself
#   share/zsh/site-functions/_notify
#   share/fish/vendor_completions.d/notify.fish
#   share/systemd/user/ (PREFIX ~/.local) or lib/systemd/user/ (other prefixes):
#     notify.service, notify-fire.service, notify-fire.timer, ExecStart= pointing at bin/notify
#   share/notify/installed-files                      what was installed, for uninstall
# then, when DESTDIR is empty and a user systemd instance answers, enables and starts
# notify.service (not with --no-enable); otherwise it says what to run. Running it again
# installs the same files again. DESTDIR is prepended to every path written (for
# packaging); the files still name PREFIX.
#
# uninstall disables the units (when a user systemd instance answers and DESTDIR is empty)
# and removes the files listed in share/notify/installed-files, the list, and the folders
# that leaves empty. The store ($NOTIFY_DB, ~/.local/state/notify) is never touched.
#
# --binary PATH installs a notify already built instead of building one; --man-pages DIR
# takes pages generate-manual wrote there (swift-argument-parser's tool, what its plugin
# runs) instead of generating them from the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

action=install
prefix="$HOME/.local"
destdir=""
enable=yes
binary=""
man_pages=""
while [ $# -gt 0 ]; do
  case "$1" in
    install | uninstall) action=$1 ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    --destdir) destdir=${2:?--destdir needs a folder}; shift ;;
    --no-enable) enable=no ;;
    --binary) binary=${2:?--binary needs a path}; shift ;;
    --man-pages) man_pages=${2:?--man-pages needs a folder}; shift ;;
    -h | --help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1': see scripts/install.sh --help" >&2; exit 64 ;;
  esac
  shift
done
case "$prefix" in
  /*) ;;
  *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 64 ;;
esac
prefix=${prefix%/}

if [ "$prefix" = "$HOME/.local" ]; then
  units_dir="$prefix/share/systemd/user"   # $XDG_DATA_HOME/systemd/user: searched by systemd --user
else
  units_dir="$prefix/lib/systemd/user"     # /usr/lib/systemd/user, /usr/local/lib/systemd/user
fi
manifest="$prefix/share/notify/installed-files"

# A user systemd instance that answers (not when installing into a package tree).
user_systemd() {
  [ -z "$destdir" ] && command -v systemctl > /dev/null && systemctl --user show-environment > /dev/null 2>&1
}

uninstall() {
  if [ ! -f "$destdir$manifest" ]; then
    echo "install.sh: nothing to uninstall: no $destdir$manifest" >&2
    exit 1
  fi
  if user_systemd; then
    systemctl --user disable --now notify.service notify-fire.timer > /dev/null 2>&1 || true
  fi
  local dirs=()
  while IFS= read -r file; do
    rm -f "$destdir$file"
    dirs+=("$(dirname "$destdir$file")")
  done < "$destdir$manifest"
  rm -f "$destdir$manifest"
  dirs+=("$(dirname "$destdir$manifest")")
  # Folders left empty go too, deepest first; the prefix itself stays.
  printf '%s\n' "${dirs[@]}" | sort -ru | while IFS= read -r dir; do
    while [ "$dir" != "$destdir$prefix" ] && [ "$dir" != "/" ] && rmdir "$dir" 2> /dev/null; do
      dir=$(dirname "$dir")
    done
  done
  if user_systemd; then systemctl --user daemon-reload || true; fi
  echo "uninstalled notify from $destdir$prefix (the store is left alone)"
}

# The man pages from generate-manual, finished: git-style names
# (notify-schedule.1), no page for `help`, and the sections argument-parser does not write
# (man/notify.1.sections; the exit status in every page).
finish_man_pages() {
  local from=$1 to=$2
  mkdir -p "$to"
  for page in "$from"/notify.1 "$from"/notify.*.1; do
    local name
    name=$(basename "$page" .1)
    [ "$name" = notify.help ] && continue
    awk -v sections="man/notify.1.sections" -v exits="man/exit-status.mdoc" -v top="$([ "$name" = notify ] && echo 1)" '
      # git-style names: notify.sound.install -> notify-sound-install
      /^\.Dt / || /^\.Xr notify\./ { gsub(/\./, "-", $2) }
      /^\.Xr notify-help / { next }
      /^\.Sh "EXIT STATUS"$/ { print; while ((getline line < exits) > 0) print line; skip = 1; next }
      skip && /^\.Ex / { skip = 0; next }
      /^\.Sh "SEE ALSO"$/ && top { while ((getline line < sections) > 0) print line }
      { print }
    ' "$page" > "$to/${name//./-}.1"
  done
}

install_all() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if [ -z "$binary" ]; then
    echo "building the release binary (swift build -c release --static-swift-stdlib, scripts/release-flags.sh)"
    # A build folder of its own: SwiftPM does not relink a binary that a build without the
    # flags left behind, and the generate-manual plugin builds a dynamic one in .build.
    source scripts/release-flags.sh
    local build=(swift build -c release --static-swift-stdlib --product notify --scratch-path .build/install
      "${release_flags[@]}")
    release_scratch .build/install
    "${build[@]}" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "install.sh: the release build failed" >&2; exit 1; }
    binary="$("${build[@]}" --show-bin-path)/notify"
  fi
  [ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 66; }
  if [ -z "$man_pages" ]; then
    man_pages="$work/generated"
    mkdir -p "$man_pages"
    # What the generate-manual plugin runs, run on the binary being installed (the plugin
    # would build a release binary of its own first).
    { swift build --product generate-manual && "$(swift build --show-bin-path)/generate-manual" "$binary" \
      --multi-page --output-directory "$man_pages"; } > "$work/manual.log" 2>&1 \
      || { cat "$work/manual.log"; echo "install.sh: generating the man pages failed (above)" >&2; exit 1; }
  fi
  finish_man_pages "$man_pages" "$work/man"

  local installed=()
  put() { # put MODE SOURCE TARGET
    install -D -m "$1" "$2" "$destdir$3"
    installed+=("$3")
  }
  put 755 "$binary" "$prefix/bin/notify"
  for page in "$work"/man/*.1; do put 644 "$page" "$prefix/share/man/man1/$(basename "$page")"; done
  "$binary" --generate-completion-script bash > "$work/notify.bash"
  "$binary" --generate-completion-script zsh > "$work/_notify"
  "$binary" --generate-completion-script fish > "$work/notify.fish"
  put 644 "$work/notify.bash" "$prefix/share/bash-completion/completions/notify"
  put 644 "$work/_notify" "$prefix/share/zsh/site-functions/_notify"
  put 644 "$work/notify.fish" "$prefix/share/fish/vendor_completions.d/notify.fish"
  for unit in units/notify.service units/notify-fire.service units/notify-fire.timer; do
    sed "s|%h/.local/bin/notify|$prefix/bin/notify|g" "$unit" > "$work/$(basename "$unit")"
    put 644 "$work/$(basename "$unit")" "$units_dir/$(basename "$unit")"
  done
  mkdir -p "$(dirname "$destdir$manifest")"
  printf '%s\n' "${installed[@]}" > "$destdir$manifest"
  chmod 644 "$destdir$manifest"
  echo "installed notify in $destdir$prefix (${#installed[@]} files, listed in $manifest)"

  if [ "$enable" = yes ] && user_systemd; then
    systemctl --user daemon-reload
    systemctl --user enable --now notify.service
    echo "enabled and started notify.service (systemctl --user status notify)"
  else
    echo "to run the daemon: systemctl --user daemon-reload && systemctl --user enable --now notify.service"
  fi
  if [ "$prefix" = "$HOME/.local" ]; then
    echo "zsh: to complete notify, add fpath+=($prefix/share/zsh/site-functions) before compinit in ~/.zshrc"
  fi
  case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add it to use the notify command" ;;
  esac
}

if [ "$action" = uninstall ]; then uninstall; else install_all; fi
