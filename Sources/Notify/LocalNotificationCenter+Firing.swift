import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones

extension LocalNotificationCenter {
  /// The service that fires the app's scheduled notifications while the app runs and
  /// relays the desktop's answers to `events`; run one per center in the app's
  /// `ServiceGroup`. With `firesScheduledNotifications` false it only relays, leaving
  /// scheduled notifications to the daemon.
  public func firingService(firesScheduledNotifications: Bool = true) -> NotificationFiringService {
    NotificationFiringService(center: self, firesScheduledNotifications: firesScheduledNotifications)
  }

  /// Delivers every occurrence of the app's notifications that is due now, once, even
  /// when the daemon or another process fires at the same moment; returns how many were
  /// delivered. A delivery the sink keeps refusing is recorded as `failed`. With `task`,
  /// stops starting deliveries once the task has expired and returns the rest to pending.
  /// The same engine as `notify fire-due`, for this app only.
  @discardableResult
  package func deliverDueNow(within task: BackgroundTask? = nil) throws(NotifyError) -> Int {
    try firer.exclusively { firer throws(NotifyError) in try firer.fireBatch(task: task).delivered }
  }

  /// True while the center's firing service runs and has armed its timer: from then on,
  /// what falls due is delivered by this process.
  public var isFiring: Bool { runningLoop.value?.isReady ?? false }

  /// The app's next fire instant (abandoned claims of a firer that died included), or
  /// nil when nothing is pending.
  public func nextFireDate() async throws(NotificationError) -> Date? {
    let firer = self.firer
    return try await calls.run { () throws(NotifyError) in
      try firer.exclusively { firer throws(NotifyError) in try firer.nextFireDate() }
    }
  }

  /// The firing loop the service runs: the daemon's loop, driving this app's firer and
  /// dispatching the desktop's answers, with the sinks' owner held for every step.
  func makeFiringLoop(fires: Bool) -> FiringLoop {
    let loop = FiringLoop(
      firer: firer.exclusively { $0 }, clock: clock,
      configuration: .init(storePath: store.path, handlesSignals: false, fires: fires),
      logger: NotifyLogging.logger("notify.firing"), attached: sinks.desktop, owner: sinks.sink)
    let relay = self.relay
    let sinks = self.sinks
    let app = self.app
    let logger = NotifyLogging.logger("notify.bubbles")
    loop.onWake = {
      relay.relay()
      sinks.takeOverLeftBubbles(app: app, logger: logger)
    }
    return loop
  }
}

/// The center's firer, used only as the sinks' owner (`SerializedSink`): the firer is not
/// thread-safe, and the app's threads and its firing loop all reach it. Made on first use:
/// a center that only schedules (the `notify` command) never needs one.
final class OwnedFirer: @unchecked Sendable {
  // Safe: `firer` is only made and used inside `owner.exclusively`, and the loop that is
  // handed it dispatches only as that owner.
  private var firer: Firer?
  private let make: () -> Firer
  private let owner: SerializedSink

  init(owner: SerializedSink, make: @escaping () -> Firer) {
    self.owner = owner
    self.make = make
  }

  /// Runs `body` with the firer, as the sinks' owner.
  func exclusively<T, E: Error>(_ body: (Firer) throws(E) -> T) throws(E) -> T {
    try owner.exclusively { () throws(E) -> T in
      let firer = self.firer ?? make()
      self.firer = firer
      return try body(firer)
    }
  }
}

/// The sink the app's firer hands deliveries to: the center's own sink, then the
/// center's event stream.
final class AnnouncingSink: DeliverySink {
  private let sink: SerializedSink
  private let announce: @Sendable (Delivery) -> Void

  init(_ sink: SerializedSink, announce: @escaping @Sendable (Delivery) -> Void) {
    self.sink = sink
    self.announce = announce
  }

  var name: String { sink.name }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    let receipt = try sink.deliver(delivery)
    announce(delivery)
    return receipt
  }
}
