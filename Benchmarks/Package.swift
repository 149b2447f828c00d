// swift-tools-version:6.1
import PackageDescription

// Fire latency of `notify daemon` against a bare sd-event timer. Kept out of the main
// package so that its build stays light; it drives the built `notify` binary as a user
// would. See BENCHMARKS.md.
//
// The peer benchmarks (`bash .ci/bench`) add harnesses that compare notify with what users
// would pick instead (APScheduler, at, notify-send) and one that grows a store to 64,000
// notifications. `scale` and `desktop-rate` call the library, so this package depends on the
// one above (declared by name: a path dependency is otherwise named after its folder).
let package = Package(
  name: "notify-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "notify", path: "..")],
  targets: [
    .systemLibrary(name: "CSdEvent", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    // The floor: one CLOCK_REALTIME sd-event timer re-armed for each instant, one write(2) per wake.
    .executableTarget(name: "sd-event-floor", dependencies: ["CSdEvent"]),
    // The harness: schedules, runs the floor and the daemon, reads both through a pipe.
    .executableTarget(
      name: "fire-latency", dependencies: ["BenchSupport", .product(name: "Notify", package: "notify")]),
    // Shared by the peer harnesses: posix_spawn children, /proc figures, statistics, tables.
    .target(name: "BenchSupport"),
    // notify daemon vs APScheduler, idle with 64 pending: wake-ups per minute and RSS.
    .executableTarget(name: "idle-cost", dependencies: ["BenchSupport"]),
    // notify schedule vs at(1) + atd, process start to exit.
    .executableTarget(name: "cli-cost", dependencies: ["BenchSupport"]),
    // 1000 apps x 64 pending through the library: throughput, next-fire lookup, daemon RSS.
    .executableTarget(
      name: "scale", dependencies: ["BenchSupport", .product(name: "Notify", package: "notify")]),
    // Calendars (docs/calendars.md): 5,000 events read in, the daemon's memory, one change, idle.
    .executableTarget(name: "calendar-cost", dependencies: ["BenchSupport"]),
    // The desktop sink vs notify-send against a paused dunst.
    .executableTarget(
      name: "desktop-rate", dependencies: ["BenchSupport", .product(name: "Notify", package: "notify")]),
  ]
)
