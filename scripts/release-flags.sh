# The link layout of the installed notify, sourced by scripts/install.sh and .ci/bench so
# that what is benchmarked is what is installed. Sets `release_flags`, the arguments to
# add to `swift build -c release --static-swift-stdlib`. Why each (BENCHMARKS.md, "Idle
# cost"; docs/decisions/0066):
#
#   -function-sections        each function in a section of its own, so the linker can move it
#   -use-ld=lld               lld: the symbol ordering below, and RELR
#   -z pack-relative-relocs   RELR: the executable's 91,000 relative relocations in 17 KB
#                             instead of 2.1 MB read at every start (needs glibc 2.36)
#   --symbol-ordering-file    the functions notify runs (scripts/link-order.txt, written by
#                             scripts/link-order.sh) first and together, the daemon's first:
#                             the pages a process touches are then few and adjacent
#   --no-export-dynamic       no 14,000-symbol dynamic table that nothing looks up
#   --disable-local-rpath     no RUNPATH $ORIGIN: the loader would look for each shared library
#                             in the binary's folder first (/usr/bin, ~/.local/bin) at every start
#   -z now                    every symbol bound at start (with lld's default -z relro, the whole
#                             GOT read-only): few, as only libc, libstdc++, SQLite and libsystemd
#                             are shared
#
# The executable stays position-independent (address randomisation is kept).
release_flags=(
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xswiftc -use-ld=lld
  -Xlinker -z -Xlinker pack-relative-relocs
  -Xlinker "--symbol-ordering-file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/link-order.txt"
  -Xlinker --no-warn-symbol-ordering
  -Xlinker --no-export-dynamic
  -Xlinker -z -Xlinker now
  --disable-local-rpath
)

# release_scratch DIR: empties the build folder DIR when it was built with other flags.
# SwiftPM rebuilds nothing when only -Xswiftc -Xfrontend flags change, and does not relink
# when only scripts/link-order.txt does: a build would keep objects without function
# sections, or a layout from an older list.
release_scratch() {
  local stamp=$1/release-flags
  [ "$(cat "$stamp" 2> /dev/null)" = "${release_flags[*]}" ] || rm -rf "$1"
  mkdir -p "$1"
  printf '%s' "${release_flags[*]}" > "$stamp"
  rm -f "$1"/*/release/notify
}
