import ArgumentParser
import Foundation
import Logging
import Notify
import NotifyFiring

/// `notify daemon`: the resident service that fires every app's notifications on time
/// (SPEC.md §6).
struct DaemonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon", abstract: "Run the resident service that fires notifications on time.",
    discussion: """
      Sleeps until the earliest pending notification is due (no polling), delivers it, and
      re-arms at once when another process changes the store, when the clock is set or
      after suspend. Stops cleanly on SIGTERM or SIGINT. Under systemd (Type=notify) it
      reports READY, STATUS and WATCHDOG and logs to the journal; see units/notify.service.
      """)

  @OptionGroup var store: StoreOptions

  @Option(name: .long, help: "auto (desktop when a server answers, else stdout), desktop or stdout.")
  var sink: SinkChoice = .auto

  @Option(
    name: .customLong("misfire-grace"),
    help: "Record occurrences later than this (e.g. 10m) as missed instead of delivering them late.")
  var misfireGrace: String?

  func run() throws {
    // Before any thread exists, so that SIGTERM reaches the loop's signalfd only.
    FiringDaemon.blockTerminationSignals()
    LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
    let grace = try misfireGrace.map { text throws(NotifyError) in
      try DurationArgument.parse(text, option: "--misfire-grace")
    }
    let store = try store.open()
    let sink = try sink.makeSink()
    let firer = Firer(
      store: store, sink: sink, identity: .current, sounds: FiringSounds.resolver,
      logger: Logger(label: "notify.firing"), options: .init(misfireGrace: grace))
    let daemon = FiringDaemon(
      firer: firer, configuration: .init(storePath: store.path), pendingCount: { try store.pendingCount() })
    try daemon.run()
  }
}

/// Where fire-time sound checks come from (SPEC.md §4: "the check runs again at fire time").
enum FiringSounds {
  /// The sound library's resolver once it lands; until then sounds pass through unchecked.
  static var resolver: any SoundResolving { UncheckedSounds() }
}
