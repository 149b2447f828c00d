import Foundation
import Logging
import NotifyCalendarSync
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

  /// True while the center's firing service runs and has armed its timer: from then on,
  /// what falls due is delivered by this process.
  public var isFiring: Bool { runningLoop.value?.isReady ?? false }

  /// The app's next fire instant (abandoned claims of a firer that died included), or
  /// nil when nothing is pending.
  public func nextFireDate() async throws(NotificationError) -> Date? {
    try await backend.nextFireDate()
  }

  /// The engine the service runs (`FiringEngine.app`): the daemon's loop, driving this
  /// app's firer and dispatching the desktop's answers, as a job of the center's owner
  /// (made there, since the firer is the owner's); after each wake-up it relays what
  /// others recorded of the app's notifications and takes over bubbles left for it.
  func makeFiringEngine(fires: Bool, control: FiringLoopControl) async -> FiringEngine {
    let (firer, clock, store, sinks, relay, app) = (
      self.firer, self.clock, self.store, self.sinks, self.relay, self.app
    )
    return await firer.owner.run {
      let logger = NotifyLogging.logger("notify.bubbles")
      return FiringEngine.app(
        app, store: store, sinks: sinks, firer: firer.firer, owner: firer.owner, clock: clock, fires: fires,
        control: control
      ) {
        relay.relay()
        sinks.takeOverLeftBubbles(app: app, logger: logger)
      }
    }
  }
}

/// The center's firer and its owner (`SinkOwner`): the firer is not thread-safe, and the
/// app's tasks and its firing loop all reach it, so only the owner's jobs touch it. Made on
/// first use: a center that only schedules (the `notify` command) never needs one.
final class OwnedFirer: @unchecked Sendable {
  // Safe: `made` is read and written only on `owner` (`firer` checks it), one job at a time.
  private var made: Firer?
  private let make: () -> Firer
  /// The executor that owns the firer, the center's sinks and their bus connection.
  let owner: SinkOwner

  init(owner: SinkOwner, make: @escaping () -> Firer) {
    self.owner = owner
    self.make = make
  }

  /// The firer; on the owner only.
  var firer: Firer {
    precondition(owner.isCurrent, "the center's firer is used on its owner only")
    if let made { return made }
    let firer = make()
    made = firer
    return firer
  }
}

/// The sink the app's firer hands deliveries to: the center's own sink, then the
/// center's event stream.
final class AnnouncingSink: DeliverySink {
  private let sink: any DeliverySink
  private let announce: @Sendable (Delivery) -> Void

  init(_ sink: any DeliverySink, announce: @escaping @Sendable (Delivery) -> Void) {
    self.sink = sink
    self.announce = announce
  }

  var name: String { sink.name }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try deliver(delivery, after: .open)
  }

  func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt {
    let receipt = try sink.deliver(delivery, after: gate)
    announce(delivery)
    return receipt
  }
}
