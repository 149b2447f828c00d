// swift-tools-version:6.1
import PackageDescription

// Fire latency of `notify daemon` against a bare sd-event timer. Kept out of the main
// package so that its build stays light; it drives the built `notify` binary as a user
// would. See BENCHMARKS.md.
let package = Package(
  name: "notify-benchmarks",
  platforms: [.macOS(.v15)],
  targets: [
    .systemLibrary(name: "CSdEvent", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    // The floor: one CLOCK_REALTIME sd-event timer re-armed for each instant, one write(2) per wake.
    .executableTarget(name: "sd-event-floor", dependencies: ["CSdEvent"]),
    // The harness: schedules, runs the floor and the daemon, reads both through a pipe.
    .executableTarget(name: "fire-latency"),
  ]
)
