#!/usr/bin/env bash
# Installs notify for a user (or into a package tree), or removes exactly what it installed.
#
#   scripts/install.sh [install|uninstall] [--prefix DIR] [--destdir DIR] [--no-enable]
#                      [--binary PATH] [--man-pages DIR] [--no-strip] [--force]
#   scripts/install.sh [install] --allow-wake [--yes] [--prefix DIR]
#
# install (the default) builds the release binary as units/README.md recommends
# (`swift build -c release --static-swift-stdlib` with the link layout of
# scripts/release-flags.sh) and installs, under PREFIX (default
# ~/.local):
#   bin/notify                                        the program (0755), without debug info
#   share/man/man1/notify.1, notify-SUBCOMMAND.1      man pages (argument-parser's generate-manual,
#                                                     finished by scripts/finish-man-pages.sh)
#   share/bash-completion/completions/notify          completions, from the program itself
#   share/zsh/site-functions/_notify
#   share/fish/vendor_completions.d/notify.fish
#   share/systemd/user/ (PREFIX ~/.local) or lib/systemd/user/ (other prefixes):
#     notify.service, notify-fire.service, notify-fire.timer, ExecStart= pointing at bin/notify
#     (in double quotes when the path has a space or other character systemd would split on)
#   share/dbus-1/services/io.github.notify.Scheduler1.service   D-Bus activation of the daemon
#   share/dbus-1/interfaces/io.github.notify.Scheduler1.xml     the scheduler's interface
#   share/notify/installed-files                      what was installed, for uninstall, one
#                                                     path a line, appended as each file goes in
#   share/notify/installed-files.sha256               the sha256 of each file as installed
#   share/notify/installed-files.backups              files --force moved aside (see below)
# then, when DESTDIR is empty and a user systemd instance answers, enables and starts
# notify.service (not with --no-enable); otherwise it says what to run. Running it again
# installs the same files again. DESTDIR is prepended to every path written (for
# packaging); the files still name PREFIX.
#
# install never overwrites a file it did not install: before writing anything it checks
# every target, and a file that exists but is not in installed-files, or differs from what
# was installed (its sha256), makes it stop with exit 73, naming the file. With --force
# such a file is renamed FILE.notify-backup (recorded in installed-files.backups) and
# uninstall puts it back; if FILE.notify-backup exists already, it stops even with --force.
# PREFIX must be absolute and normalized (no //, /./, /../), and may not contain $, quotes,
# a backslash or control characters, which an ExecStart= cannot name (exit 64); spaces, &,
# |, % and the like are fine. A failure midway leaves installed-files listing what was put
# in place, so uninstall removes it.
#
# uninstall disables the units (when a user systemd instance answers and DESTDIR is empty)
# and removes the files listed in share/notify/installed-files, puts back the files --force
# moved aside, removes the lists and the folders that leaves empty. A listed file changed
# since it was installed is left in place (and said so) unless --force. The store
# ($NOTIFY_DB, ~/.local/state/notify) is never touched.
#
# Relative paths (--binary, --man-pages, --destdir) are taken from the folder install.sh
# was started in. --binary PATH installs a notify already built instead of building one; --man-pages DIR
# takes pages generate-manual wrote there (swift-argument-parser's tool, what its plugin
# runs) instead of generating them from the binary.
#
# The binary is installed without its debug info (`llvm-objcopy --strip-debug`: the
# toolchain's, beside swift, else llvm-objcopy or binutils' objcopy on PATH): 81 MB instead
# of 103 (most of the rest is the Swift runtime and Foundation, linked in statically, with
# ICU's data). The symbol table (17 MB, never loaded) stays, so that a crash's backtrace
# names functions and .ci/install-check can see the link order. The debug info is not
# kept anywhere: to debug, run a `swift build` binary. --no-strip installs the binary as
# built, for packaging tools that split the debug info off themselves (dh_strip, rpm's
# find-debuginfo).
#
# --allow-wake lets the installed notify wake the machine from suspend for notifications
# scheduled with --wake (docs/sleep-wake-power.md). Waking needs CAP_WAKE_ALARM; it does
# what fits, and asks before anything runs with sudo (--yes answers yes):
#   - where your user manager has CAP_WAKE_ALARM (systemd 254 and later give it to a local
#     user's session): the drop-in ~/.config/systemd/user/notify.service.d/wake.conf
#     (AmbientCapabilities=CAP_WAKE_ALARM) passes it on to notify daemon, which then holds
#     an alarm timer of its own; notify.service is restarted. No sudo.
#   - where it has not (systemd before 254, as Debian 12's 252): with sudo, the drop-in
#     /etc/systemd/system/user@.service.d/notify-wake.conf (AmbientCapabilities=
#     CAP_WAKE_ALARM), which gives your user manager the capability from your next login,
#     as systemd 254 does (run --allow-wake again then); and `setcap cap_wake_alarm+ep` on
#     PREFIX/bin/notify, for notify daemon run outside systemd (a unit's no_new_privs keeps
#     a file capability from taking effect inside it).
# Alone (without install, --binary or --man-pages) --allow-wake changes only that, on the
# notify installed in PREFIX; uninstall removes the user drop-in (not the root one).
#
# Exit status: 0 done; 1 a build or an install step failed, or nothing to uninstall; 64 a
# bad argument or prefix; 66 --binary is not executable; 73 a file that is not ours is in
# the way (see --force).
set -euo pipefail
# (paths given relative to where the script was started: --binary, --man-pages, --destdir)
caller=$PWD
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$caller" "$1" ;; esac; }
cd "$(dirname "$0")/.."

action=install
prefix="$HOME/.local"
destdir=""
enable=yes
binary=""
man_pages=""
strip=yes
force=no
allow_wake=no
assume_yes=no
explicit_action=no
while [ $# -gt 0 ]; do
  case "$1" in
    install | uninstall) action=$1; explicit_action=yes ;;
    --allow-wake) allow_wake=yes ;;
    --yes) assume_yes=yes ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    --destdir) destdir=$(absolute "${2:?--destdir needs a folder}"); shift ;;
    --no-enable) enable=no ;;
    --binary) binary=$(absolute "${2:?--binary needs a path}"); shift ;;
    --man-pages) man_pages=$(absolute "${2:?--man-pages needs a folder}"); shift ;;
    --no-strip) strip=no ;;
    --force) force=yes ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1': see scripts/install.sh --help" >&2; exit 64 ;;
  esac
  shift
done
case "$prefix" in
  /*) ;;
  *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 64 ;;
esac
while [ "$prefix" != / ] && [ "${prefix%/}" != "$prefix" ]; do prefix=${prefix%/}; done
[ "$prefix" = / ] && prefix=""
# The prefix ends up in ExecStart= of the units (systemd.service(5) "COMMAND LINES"):
# systemd rejects an executable path with quotes or a backslash, expands $, and no control
# character may appear; a newline would also break installed-files. Everything else is
# written quoted and escaped (systemd_path below).
bad_prefix() {
  echo "install.sh: --prefix '$prefix' $1; choose another prefix" >&2
  exit 64
}
case "$prefix" in
  *[[:cntrl:]]*) bad_prefix "contains a control character (a newline, a tab, ...), which a systemd ExecStart= cannot name" ;;
  *[\$\"\'\\]*) bad_prefix "contains \$, a quote or a backslash, which a systemd ExecStart= cannot name (systemd.service(5))" ;;
  *//* | */./* | */../* | */. | */..) bad_prefix "is not normalized (//, /./ or /../), which systemd rejects in ExecStart=" ;;
esac

if [ "$prefix" = "$HOME/.local" ]; then
  units_dir="$prefix/share/systemd/user"   # $XDG_DATA_HOME/systemd/user: searched by systemd --user
else
  units_dir="$prefix/lib/systemd/user"     # /usr/lib/systemd/user, /usr/local/lib/systemd/user
fi
manifest="$prefix/share/notify/installed-files"
sums="$manifest.sha256"       # "SHA256  PATH", the last line for a path wins
backups="$manifest.backups"   # PATH, moved to PATH.notify-backup by --force

# The sha256 of a file (of what a symlink points to: a symlink is never ours anyway).
sha256() { sha256sum < "$1" | cut -d' ' -f1; }

# What an earlier install recorded: listed[PATH]=1, sum[PATH]=SHA256, backed_up[PATH]=1.
declare -A listed=() sum=() backed_up=()
read_manifest() {
  local line
  if [ -f "$destdir$manifest" ]; then
    while IFS= read -r line; do if [ -n "$line" ]; then listed[$line]=1; fi; done < "$destdir$manifest"
  fi
  if [ -f "$destdir$sums" ]; then
    while IFS= read -r line; do if [ -n "$line" ]; then sum[${line#*  }]=${line%%  *}; fi; done < "$destdir$sums"
  fi
  if [ -f "$destdir$backups" ]; then
    while IFS= read -r line; do if [ -n "$line" ]; then backed_up[$line]=1; fi; done < "$destdir$backups"
  fi
}

# Whether the file at PATH (under DESTDIR) is the one an earlier install put there: listed,
# a regular file, and the same as when installed (a list from before sums were kept, or an
# install interrupted before the sum was written, has none: listed is then enough).
ours() {
  local file="$destdir$1"
  [ -n "${listed[$1]:-}" ] && [ -f "$file" ] && [ ! -L "$file" ] \
    && { [ -z "${sum[$1]:-}" ] || [ "$(sha256 "$file")" = "${sum[$1]}" ]; }
}

# PATH as the first word of an ExecStart= line: as it is when it has nothing systemd would
# split or expand, otherwise in double quotes; % is doubled either way (a specifier).
# (bad_prefix has already refused $, quotes, backslashes and control characters.)
systemd_path() {
  local escaped=${1//%/%%}
  if [[ $1 =~ [^A-Za-z0-9/._+@:,=~%-] ]]; then
    printf '"%s"' "$escaped"
  else
    printf '%s' "$escaped"
  fi
}

# A user systemd instance that answers (not when installing into a package tree).
user_systemd() {
  [ -z "$destdir" ] && command -v systemctl > /dev/null && systemctl --user show-environment > /dev/null 2>&1
}

uninstall() {
  if [ ! -f "$destdir$manifest" ]; then
    echo "install.sh: nothing to uninstall: no $destdir$manifest" >&2
    exit 1
  fi
  read_manifest
  if user_systemd; then
    systemctl --user disable --now notify.service notify-fire.timer > /dev/null 2>&1 || true
  fi
  local dirs=() file
  while IFS= read -r file; do
    [ -n "$file" ] || continue
    if [ -e "$destdir$file" ] || [ -L "$destdir$file" ]; then
      if ours "$file" || [ "$force" = yes ]; then
        rm -f -- "$destdir$file"
      else
        echo "install.sh: left $destdir$file: it changed since it was installed (--force removes it)" >&2
      fi
    fi
    if [ -n "${backed_up[$file]:-}" ] && { [ -e "$destdir$file.notify-backup" ] || [ -L "$destdir$file.notify-backup" ]; }; then
      if [ -e "$destdir$file" ] || [ -L "$destdir$file" ]; then
        echo "install.sh: left $destdir$file.notify-backup: $destdir$file is still there" >&2
      else
        mv -T -- "$destdir$file.notify-backup" "$destdir$file"
        echo "restored $destdir$file (from $destdir$file.notify-backup)"
      fi
    fi
    dirs+=("$(dirname "$destdir$file")")
  done < "$destdir$manifest"
  rm -f -- "$destdir$manifest" "$destdir$sums" "$destdir$backups"
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

# The objcopy that strips the debug info: the Swift toolchain's llvm-objcopy (beside the
# swift that builds notify), else llvm-objcopy or binutils' objcopy on PATH.
objcopy_tool() {
  local swift
  if swift=$(command -v swift) && [ -x "$(dirname "$(readlink -f "$swift")")/llvm-objcopy" ]; then
    echo "$(dirname "$(readlink -f "$swift")")/llvm-objcopy"
  else
    command -v llvm-objcopy || command -v objcopy
  fi
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
  bash scripts/finish-man-pages.sh "$man_pages" "$work/man"
  if [ "$strip" = yes ]; then
    local objcopy
    objcopy=$(objcopy_tool) || { echo "install.sh: no llvm-objcopy or objcopy to strip the debug info with (install binutils, or use --no-strip)" >&2; exit 1; }
    "$objcopy" --strip-debug "$binary" "$work/notify" \
      || { echo "install.sh: '$objcopy --strip-debug $binary' failed" >&2; exit 1; }
    binary="$work/notify"
  fi

  # Everything to install, as SOURCE MODE TARGET, made in $work first.
  # (without argument-parser's #! line: bash-completion sources the file, never runs it)
  "$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$work/notify.bash"
  "$binary" --generate-completion-script zsh > "$work/_notify"
  "$binary" --generate-completion-script fish > "$work/notify.fish"
  local exec_path content unit
  exec_path=$(systemd_path "$prefix/bin/notify")
  for unit in units/notify.service units/notify-fire.service units/notify-fire.timer; do
    # No sed: the path is data, not a replacement pattern (& | \ would mean something).
    content=$(< "$unit")
    printf '%s\n' "${content//"%h/.local/bin/notify"/"$exec_path"}" > "$work/$(basename "$unit")"
  done
  # The scheduler's D-Bus activation file names the binary as the units do.
  content=$(< data/dbus/io.github.notify.Scheduler1.service)
  printf '%s\n' "${content//"%h/.local/bin/notify"/"$exec_path"}" > "$work/io.github.notify.Scheduler1.service"
  cp data/dbus/io.github.notify.Scheduler1.xml "$work/"
  local sources=() modes=() targets=()
  plan() { sources+=("$1"); modes+=("$2"); targets+=("$3"); }
  plan "$binary" 755 "$prefix/bin/notify"
  for page in "$work"/man/*.1; do plan "$page" 644 "$prefix/share/man/man1/$(basename "$page")"; done
  plan "$work/notify.bash" 644 "$prefix/share/bash-completion/completions/notify"
  plan "$work/_notify" 644 "$prefix/share/zsh/site-functions/_notify"
  plan "$work/notify.fish" 644 "$prefix/share/fish/vendor_completions.d/notify.fish"
  for unit in notify.service notify-fire.service notify-fire.timer; do plan "$work/$unit" 644 "$units_dir/$unit"; done
  plan "$work/io.github.notify.Scheduler1.service" 644 "$prefix/share/dbus-1/services/io.github.notify.Scheduler1.service"
  plan "$work/io.github.notify.Scheduler1.xml" 644 "$prefix/share/dbus-1/interfaces/io.github.notify.Scheduler1.xml"

  # Before writing anything: no file that is not ours gets overwritten without --force.
  read_manifest
  local -A backup=()
  local target in_the_way=()
  for target in "${targets[@]}" "$manifest" "$sums" "$backups"; do
    { [ -e "$destdir$target" ] || [ -L "$destdir$target" ]; } || continue
    case "$target" in "$manifest" | "$sums" | "$backups") [ -f "$destdir$target" ] && continue ;; esac
    ours "$target" && continue
    if [ "$force" = yes ] && ! [ -e "$destdir$target.notify-backup" ] && ! [ -L "$destdir$target.notify-backup" ]; then
      backup[$target]=1
    else
      in_the_way+=("$target")
    fi
  done
  if [ ${#in_the_way[@]} -gt 0 ]; then
    for target in "${in_the_way[@]}"; do
      if [ "$force" = yes ]; then
        echo "install.sh: $destdir$target is not one install.sh installed, and $destdir$target.notify-backup exists already: move one of them away" >&2
      else
        echo "install.sh: $destdir$target exists and was not installed by install.sh (or changed since): not overwriting it" >&2
      fi
    done
    [ "$force" = yes ] \
      || echo "install.sh: nothing was written; move it away, or rerun with --force to install anyway (it is kept as FILE.notify-backup, and uninstall puts it back)" >&2
    exit 73
  fi

  # The lists are written as each file goes in, so that a failure midway leaves an
  # install that uninstall can take back: a backup is listed before the file is moved,
  # a file before it is written, its sum once it is.
  mkdir -p "$(dirname "$destdir$manifest")"
  local i count=0
  for i in "${!targets[@]}"; do
    target=${targets[$i]}
    if [ -n "${backup[$target]:-}" ]; then
      if [ -z "${backed_up[$target]:-}" ]; then printf '%s\n' "$target" >> "$destdir$backups"; backed_up[$target]=1; fi
      mv -T -- "$destdir$target" "$destdir$target.notify-backup"
      echo "kept $destdir$target as $destdir$target.notify-backup (--force; uninstall puts it back)"
    fi
    if [ -z "${listed[$target]:-}" ]; then printf '%s\n' "$target" >> "$destdir$manifest"; listed[$target]=1; fi
    install -D -m "${modes[$i]}" -- "${sources[$i]}" "$destdir$target" || {
      echo "install.sh: installing $destdir$target failed; what was installed so far is listed in $destdir$manifest, and 'scripts/install.sh uninstall' with the same --prefix/--destdir removes it" >&2
      exit 1
    }
    sum[$target]=$(sha256 "$destdir$target")
    printf '%s  %s\n' "${sum[$target]}" "$target" >> "$destdir$sums"
    count=$((count + 1))
  done
  # The sums once more, one line a file (a reinstall appended new ones).
  while IFS= read -r target; do
    if [ -n "${sum[$target]:-}" ]; then printf '%s  %s\n' "${sum[$target]}" "$target"; fi
  done < "$destdir$manifest" > "$destdir$sums.new"
  mv -f -- "$destdir$sums.new" "$destdir$sums"
  chmod 644 "$destdir$manifest" "$destdir$sums"
  if [ -f "$destdir$backups" ]; then chmod 644 "$destdir$backups"; fi
  echo "installed notify in $destdir$prefix ($count files, listed in $manifest)"

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

# The user's drop-in that passes CAP_WAKE_ALARM on to notify.service.
wake_dropin() {
  printf '%s/systemd/user/notify.service.d/wake.conf' "${XDG_CONFIG_HOME:-$HOME/.config}"
}

# Whether the user manager can pass CAP_WAKE_ALARM on: a unit that asks for it as an
# ambient capability starts only where the manager has it (systemd fails it with 218).
manager_has_wake_alarm() {
  systemd-run --user --wait --quiet --collect -p AmbientCapabilities=CAP_WAKE_ALARM true > /dev/null 2>&1
}

# yes_or_no QUESTION: --yes, or the user's answer on the terminal.
yes_or_no() {
  [ "$assume_yes" = yes ] && return 0
  [ -r /dev/tty ] || return 1
  local answer
  printf '%s [y/N] ' "$1" > /dev/tty
  read -r answer < /dev/tty || return 1
  case "$answer" in y | Y | yes | YES) return 0 ;; *) return 1 ;; esac
}

allow_wake_step() {
  local bin="$destdir$prefix/bin/notify"
  [ -x "$bin" ] || { echo "install.sh: --allow-wake: no notify installed at $bin (install it first)" >&2; exit 66; }
  if ! user_systemd; then
    echo "install.sh: --allow-wake: no user systemd instance answers; for notify daemon run by hand: sudo setcap cap_wake_alarm+ep $bin" >&2
    exit 1
  fi
  if manager_has_wake_alarm; then
    local dropin
    dropin=$(wake_dropin)
    mkdir -p "$(dirname "$dropin")"
    printf '%s\n' "# notify daemon wakes the machine for --wake notifications (scripts/install.sh --allow-wake)" \
      "[Service]" "AmbientCapabilities=CAP_WAKE_ALARM" > "$dropin"
    systemctl --user daemon-reload
    systemctl --user try-restart notify.service
    echo "notify daemon may now wake the machine: $dropin passes CAP_WAKE_ALARM on to notify.service (notify status says whether the machine has a wake alarm)"
    return 0
  fi
  local root_dropin=/etc/systemd/system/user@.service.d/notify-wake.conf
  echo "your user manager lacks CAP_WAKE_ALARM (systemd before 254 does not give it to a user's session)."
  echo "allowing it takes sudo:"
  echo "  - $root_dropin: AmbientCapabilities=CAP_WAKE_ALARM for user@.service, in effect from your next login"
  echo "  - sudo setcap cap_wake_alarm+ep $bin: for notify daemon run outside systemd"
  if ! yes_or_no "run these with sudo?"; then
    echo "install.sh: --allow-wake: nothing changed (run again and answer y, or with --yes)" >&2
    exit 1
  fi
  command -v setcap > /dev/null || { echo "install.sh: --allow-wake: no setcap (apt-get install libcap2-bin)" >&2; exit 1; }
  sudo sh -c 'mkdir -p "$(dirname "$1")" && printf "%s\n" "# a user session may wake the machine (notify: scripts/install.sh --allow-wake)" "[Service]" "AmbientCapabilities=CAP_WAKE_ALARM" > "$1" && systemctl daemon-reload' sh "$root_dropin" \
    || { echo "install.sh: --allow-wake: writing $root_dropin failed" >&2; exit 1; }
  sudo setcap cap_wake_alarm+ep "$bin" || { echo "install.sh: --allow-wake: setcap failed" >&2; exit 1; }
  echo "done: log out and in again, then run scripts/install.sh --allow-wake once more (notify.service then gets its own wake alarm)"
}

if [ "$action" = uninstall ]; then
  uninstall
  if [ -f "$(wake_dropin)" ]; then rm -f -- "$(wake_dropin)"; rmdir "$(dirname "$(wake_dropin)")" 2> /dev/null || true; fi
elif [ "$allow_wake" = yes ] && [ "$explicit_action" = no ] && [ -z "$binary" ] && [ -z "$man_pages" ]; then
  allow_wake_step
else
  install_all
  if [ "$allow_wake" = yes ]; then allow_wake_step; fi
fi
