import Foundation
import Logging
import ServiceLifecycle

/// The center's work while the app runs: fires the app's scheduled notifications through
/// the center's sink, and relays the desktop's answers (activations, dismissals) to
/// `LocalNotificationCenter.events`.
///
/// Firing shares the store with the `notify` daemon: every occurrence is claimed in the
/// store before it is handed over, so an app and a daemon running at once deliver it once.
/// The service sleeps until the app's next fire instant, wakes at once when this process
/// or another one changes the store, and stops on graceful shutdown or cancellation. When
/// the app quits, the daemon takes over. With `firesScheduledNotifications` false it only
/// relays, leaving every scheduled notification to the daemon.
///
/// ```swift
/// let group = ServiceGroup(
///   services: [center.firingService(), myAppService], gracefulShutdownSignals: [.sigterm])
/// try await group.run()
/// ```
public struct NotificationFiringService: Service {
  /// The center whose app's notifications are fired.
  public let center: LocalNotificationCenter
  /// The longest the service sleeps without looking at the store, as a guard against
  /// wall-clock changes and missed file events.
  public var maximumSleep: Duration
  /// Where failures to read or write the store are reported (never with notification content).
  public var logger: Logger
  /// Whether the service fires scheduled notifications (true) or only relays desktop answers.
  public var firesScheduledNotifications: Bool

  /// Creates the service; prefer `LocalNotificationCenter.firingService()`.
  public init(
    center: LocalNotificationCenter, firesScheduledNotifications: Bool = true,
    maximumSleep: Duration = .seconds(60), logger: Logger = Logger(label: "notify.firing")
  ) {
    self.center = center
    self.firesScheduledNotifications = firesScheduledNotifications
    self.maximumSleep = maximumSleep
    self.logger = logger
  }

  /// Runs until graceful shutdown or cancellation.
  public func run() async throws {
    let stopping = StopFlag()
    let doorbell = center.storeChanged
    let relay = center.desktopRelay
    await withTaskCancellationOrGracefulShutdownHandler {
      await withTaskGroup(of: Void.self) { group in
        if let relay {
          group.addTask { await relay.run(until: stopping) }
        }
        if firesScheduledNotifications {
          group.addTask { await fire(until: stopping) }
        } else {
          // Nothing to fire: keep running (a service that returns ends its group).
          group.addTask { while !stopping.isSet { await doorbell.wait(upTo: .seconds(3600)) } }
        }
      }
    } onCancelOrGracefulShutdown: {
      stopping.set()
      doorbell.ring()
      relay?.nudge()
    }
  }

  /// The firing loop: deliver what is due, sleep until the next fire instant or a change.
  private func fire(until stopping: StopFlag) async {
    let doorbell = center.storeChanged
    let watch = StoreWatch(path: center.store.path) { doorbell.ring() }
    defer { watch.cancel() }
    if !watch.isActive {
      logger.notice("cannot watch the store for changes by other processes; checking every \(maximumSleep)")
    }
    while !stopping.isSet {
      let delay = fireAndPlanNextWake()
      if stopping.isSet { break }
      await doorbell.wait(upTo: delay)
    }
  }

  /// Delivers what is due and returns how long to sleep before looking again.
  private func fireAndPlanNextWake() -> Duration {
    do {
      _ = try center.deliverDueNotifications()
      guard let next = try center.nextFireDate() else { return maximumSleep }
      let seconds = next.timeIntervalSince(center.clock.now())
      // Still due after firing: another firer holds the claim. Do not spin; its mark
      // (or its death) will be seen on the next look.
      if seconds <= 0 { return .seconds(1) }
      return min(maximumSleep, .milliseconds(Int64((seconds * 1000).rounded(.up))))
    } catch {
      logger.error("in-process firing failed: \(error)")
      return .seconds(5)
    }
  }
}

/// A flag set once, from any thread.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
