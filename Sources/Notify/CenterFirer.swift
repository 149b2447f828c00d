import Foundation
import Logging
import NotifyFiring

/// The center's handle on the firing engine: one `Firer` for the app, used one batch at a
/// time (the engine is not thread-safe; the service and `deliverDueNotifications` share it).
final class CenterFirer: @unchecked Sendable {
  private let lock = NSLock()
  private let firer: Firer

  init(
    app: String, store: SQLiteStore, sink: SerializedSink, clock: any NotifyClock,
    announce: @escaping @Sendable (Delivery) -> Void
  ) {
    // Inside an app, deliveries are the app's business: log only what goes wrong.
    var logger = Logger(label: "notify.firing")
    logger.logLevel = .warning
    firer = Firer(
      store: AppScopedFiringStore(base: store, app: app), sink: AnnouncingSink(sink, announce: announce),
      identity: .current, clock: clock, sounds: LibrarySounds(), logger: logger)
  }

  /// Claims and delivers one batch of what is due.
  func fireBatch(task: BackgroundTask?) throws(NotifyError) -> Firer.BatchReport {
    lock.lock()
    defer { lock.unlock() }
    return try firer.fireBatch(task: task)
  }
}
