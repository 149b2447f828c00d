import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones
import ServiceLifecycle

/// The center's work while the app runs: fires the app's scheduled notifications through
/// the center's sink, and relays to `LocalNotificationCenter.events` what happens to the
/// app's notifications, whoever showed them (deliveries, activations, dismissals). While it
/// runs the app is online: a click on one of its notifications comes to it instead of
/// launching it, and a daemon leaves the app's scheduled notifications to it.
///
/// It runs the same firing loop as `notify daemon` (`FiringLoop`, on a thread of its own),
/// for this app only: the same decisions and the same triggers — a timer for the app's
/// next instant, another process's change to the store, the wall clock being set, a
/// resume, a zone change, a dead firer's claim. Every occurrence is claimed in the store
/// before it is handed over, so an app and a daemon running at once deliver it once; when
/// the app quits, the daemon takes over. With `firesScheduledNotifications` false it only
/// relays, leaving every scheduled notification to the daemon. Stops on graceful shutdown
/// or cancellation, giving back what it had claimed and not handed over.
///
/// ```swift
/// let group = ServiceGroup(
///   services: [center.firingService(), myAppService], gracefulShutdownSignals: [.sigterm])
/// try await group.run()
/// ```
public struct NotificationFiringService: Service {
  /// The center whose app's notifications are fired.
  public let center: LocalNotificationCenter
  /// Whether the service fires scheduled notifications (true) or only relays desktop answers.
  public var firesScheduledNotifications: Bool

  /// Creates the service; prefer `LocalNotificationCenter.firingService()`.
  public init(center: LocalNotificationCenter, firesScheduledNotifications: Bool = true) {
    self.center = center
    self.firesScheduledNotifications = firesScheduledNotifications
  }

  /// Runs until graceful shutdown or cancellation.
  public func run() async throws(NotificationError) {
    if center.service != nil {
      // Through notify's service the daemon on the host fires the app's notifications and
      // its signals reach `events`: nothing to fire here, so it only waits to be stopped.
      try? await gracefulShutdown()  // throws only CancellationError, which ends the wait too
      return
    }
    let control = FiringLoopControl()
    let engine = await center.makeFiringEngine(fires: firesScheduledNotifications, control: control)
    center.runningLoop.value = control
    center.relay.start()
    let result: Result<Void, NotificationError>
    do {
      try await withTaskCancellationOrGracefulShutdownHandler {
        try await engine.run()
      } onCancelOrGracefulShutdown: {
        control.stop()
      }
      result = .success(())
    } catch let error as NotifyError {
      result = .failure(NotificationError(error))
    } catch {
      // The engine throws only `NotifyError`; the handler's signature erases it.
      result = .failure(NotificationError(NotifyError(.temporary, "the firing loop stopped: \(error)")))
    }
    center.relay.stop()
    center.runningLoop.value = nil
    try result.get()
  }
}
