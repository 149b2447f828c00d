import ArgumentParser
import Logging
import Notify
import NotifyCore
import NotifyFiring
import NotifyService

/// `notify daemon`: the resident service that fires every app's notifications on time
/// (SPEC.md §6).
struct DaemonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon", _superCommandName: "notify",
    abstract: "Run the resident service that fires notifications on time.",
    discussion: """
      Sleeps until the earliest pending notification is due (no polling), delivers it, and \
      re-arms at once when another process changes the store, when the clock is set or \
      after suspend. Stops cleanly on SIGTERM, SIGINT or SIGHUP, also in the middle of a \
      burst: no new delivery starts, one in progress ends within the sink's own timeout \
      (5 s for the desktop, 1 s for stdout), the rest goes back to pending. With --sink \
      auto it follows the session bus: the desktop while a notification server is on it, \
      stdout while none is. A stdout whose reader stops reading is retried; one whose \
      reader went away ends the daemon with exit 69. Under systemd (Type=notify) it \
      reports READY, STATUS and WATCHDOG and logs to the journal; see units/notify.service.
      """)

  @OptionGroup var store: StoreOptions

  @Option(
    name: .long,
    help:
      "auto (the desktop while a notification server is on the session bus, else stdout), desktop or stdout.")
  var sink: SinkChoice = .auto

  @Option(
    name: .customLong("misfire-grace"), parsing: .unconditional,
    help: "Record occurrences later than this (e.g. 10m) as missed instead of delivering them late.")
  var misfireGrace: String?

  func run() throws {
    // Before any thread exists, so that SIGTERM reaches the loop's signalfd only.
    FiringLoop.blockTerminationSignals()
    LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
    // The daemon logs every delivery, click and sink switch (docs/decisions/0064).
    NotifyLogging.level = .info
    let grace = try misfireGrace.map { text throws(NotifyError) in
      try DurationArgument.parse(text, option: "--misfire-grace")
    }
    // The scheduler on the session bus (docs/dbus.md), when NOTIFY_SCHEDULER=on.
    let service: ((FiringEngine.ServiceContext) -> (any LoopAttachable)?)? =
      SchedulerEndpoint.isWanted()
      ? { context in
        SchedulerEndpoint.start(
          storePath: context.storePath, clock: context.clock, bell: context.bell, present: context.present)
      } : nil
    let engine = try FiringEngine.daemon(
      store: try store.open(), options: .init(sink: sink, misfireGrace: grace), service: service)
    try engine.run()
  }
}
