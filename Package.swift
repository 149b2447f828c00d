// swift-tools-version:6.1
import PackageDescription

// The targets read as the architecture (see docs/architecture.md):
//
//   NotifyCLI ─┬─ Notify ─┬─ NotifyFiring ─┬─ NotifySound ─┐
//   ChatClient ┘          │                └─ NotifyZones ─┤
//                         ├─ NotifyStore ── CSQLite ───────┼─ NotifyCore
//                         └─ NotifyDesktop ── CSystemd     ┘
//   Notify ── NotifyCalendarSync ─┬─ NotifyCalendar ──── NotifyCore
//                                 └─ NotifyStore, NotifyFiring, NotifyZones
//
// NotifyCore is pure: values, rules (the firing decisions among them) and `now` in,
// decisions out. NotifyFiring is the one firing engine and its sd-event loop, against the
// core's ports only: it knows no SQLite and no D-Bus. Notify (the embedding library) is
// where the adapters meet: it assembles store, sinks and engine for the daemon, fire-due,
// `notify now` and apps alike (`FiringEngine`), calendars included. Everything that touches SQLite, D-Bus, sd-event, files or
// stdout is an adapter around the core. NotifyZones is the tz database adapter (TZif files
// under $TZDIR, the system zone from TZ and /etc/localtime): the core parses zone data but
// reads no files, and the store needs no zone files, so it sits beside the firer's needs.
// NotifyService, the scheduler on the session bus that `notify daemon` runs, sits between
// NotifyCLI and Notify: D-Bus values in (NotifyDesktop's bus plumbing), the library's calls
// and the store's rules behind them, named D-Bus errors out. NotifyCalendar reads calendars'
// alarms (pure, as NotifyCore is); NotifyCalendarSync watches the files and brings the store
// to them, through one component the library's assembly attaches for the daemon, fire-due
// and an app's firing service; the library's calendar calls (add, list, remove, preview,
// import) sit on it (docs/calendars.md).
let package = Package(
  name: "notify",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Notify", targets: ["Notify"]),
    .executable(name: "notify", targets: ["NotifyCLI"]),
    .executable(name: "chat-client", targets: ["ChatClient"]),
    .executable(name: "hello-notify", targets: ["HelloNotify"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CSystemd",
      pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]
    ),
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "NotifyCore"),
    .target(name: "NotifyZones", dependencies: ["NotifyCore"]),
    // Calendars' alarms (docs/calendars.md): iCalendar read, alarms expanded by the core's
    // recurrence engine, ids and the rolling window decided; pure, as NotifyCore is.
    .target(name: "NotifyCalendar", dependencies: ["NotifyCore"]),
    // Its adapters: vdir folders read and watched (inotify on the firing loop), the store
    // brought to the window, acknowledgements written back into the files.
    .target(
      name: "NotifyCalendarSync",
      dependencies: [
        "NotifyCalendar", "NotifyCore", "NotifyStore", "NotifyFiring", "NotifyZones", "CSystemd",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .target(
      name: "NotifySound",
      dependencies: ["NotifyCore", .product(name: "SystemPackage", package: "swift-system")]
    ),
    .target(
      name: "NotifyStore",
      dependencies: ["NotifyCore", "CSQLite", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    .target(
      name: "NotifyDesktop",
      dependencies: ["NotifyCore", "CSystemd", .product(name: "Logging", package: "swift-log")]
    ),
    .target(
      name: "NotifyFiring",
      dependencies: [
        "NotifyCore", "NotifySound", "NotifyZones", "CSystemd",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .target(
      name: "Notify",
      dependencies: [
        "NotifyCore", "NotifyStore", "NotifySound", "NotifyDesktop", "NotifyFiring", "NotifyZones",
        "NotifyCalendar", "NotifyCalendarSync", "CSystemd",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The scheduler on the session bus (docs/dbus.md), run by `notify daemon`.
    .target(
      name: "NotifyService",
      dependencies: [
        "Notify", "NotifyCore", "NotifyStore", "NotifyDesktop", "NotifyFiring", "NotifySound", "CSystemd",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "NotifyCLI",
      dependencies: [
        "Notify", "NotifyService", "NotifyCalendar", "NotifyCalendarSync",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "ChatClient",
      dependencies: [
        "Notify",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "examples/ChatClient"
    ),
    .executableTarget(name: "HelloNotify", dependencies: ["Notify"], path: "examples/HelloNotify"),
    .target(name: "NotifyTestSupport", dependencies: ["NotifyCore"], path: "Tests/Support"),
    // An app embedding the library, for the tests that run each firing case against it too.
    .executableTarget(
      name: "embedded-app-fixture",
      dependencies: [
        "Notify", "NotifyFiring", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/EmbeddedAppFixture"),
    // Holds the library's async calls blocked and checks that the cooperative pool stays free.
    .executableTarget(
      name: "pool-check-fixture", dependencies: ["Notify", "NotifyTestSupport"],
      path: "Tests/PoolCheckFixture"),
    // An app inside a Flatpak-like sandbox whose center goes through notify's service.
    .executableTarget(
      name: "sandbox-center-fixture", dependencies: ["Notify"], path: "Tests/SandboxCenterFixture"),
    // The documentation's Swift examples (README.md, docs/, the DocC catalog), compiled here;
    // .ci/doc-snippets checks that every example appears in it and uses public API only.
    .executableTarget(
      name: "doc-snippets",
      dependencies: ["Notify", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
      path: "Tests/DocSnippets"),
    .testTarget(name: "NotifyCoreTests", dependencies: ["NotifyTestSupport", "NotifyCore"]),
    .testTarget(name: "NotifyZonesTests", dependencies: ["NotifyTestSupport", "NotifyZones"]),
    .testTarget(
      name: "NotifyCalendarTests",
      dependencies: [
        "NotifyTestSupport", "NotifyCalendar", "NotifyCalendarSync", "NotifyStore", "NotifyZones",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      // Rows recorded from the store, read by AlarmRowsTests through its own path.
      exclude: ["Golden"]),
    .testTarget(name: "NotifySoundTests", dependencies: ["NotifyTestSupport", "NotifySound"]),
    .testTarget(name: "NotifyStoreTests", dependencies: ["NotifyTestSupport", "NotifyStore"]),
    .testTarget(name: "NotifyDesktopTests", dependencies: ["NotifyTestSupport", "NotifyDesktop"]),
    .testTarget(
      name: "NotifyFiringTests",
      dependencies: ["NotifyTestSupport", "NotifyFiring", "NotifyStore", "NotifyZones"]),
    .testTarget(name: "NotifyTests", dependencies: ["NotifyTestSupport", "Notify"]),
    .testTarget(name: "NotifyCLITests", dependencies: ["NotifyTestSupport", "NotifyCLI", "Notify"]),
    .testTarget(name: "NotifyServiceTests", dependencies: ["NotifyTestSupport", "NotifyService", "Notify"]),
    .testTarget(name: "ChatClientTests", dependencies: ["NotifyTestSupport", "Notify"]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: [
        "NotifyTestSupport", "NotifyCLI", "Notify", "NotifyFiring", "NotifyStore",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
  ]
)
