import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore
import NotifyZones

/// The sinks of one process, put together in one place for every way in (`notify daemon`,
/// `fire-due`, `notify now`, an embedding app), as swift-log puts its handlers together at
/// bootstrap: the chosen sink; around the desktop sink, the sound fallback for servers
/// without `sound` (SPEC.md §4); what an app in the foreground left out of a delivery
/// taken out (`PresentingSink`); the desktop's answers (`ActionInvoked`,
/// `NotificationClosed`) recorded in history and a click taken back to its app
/// (`InteractionRouter`); the server ids kept in the store (each delivery's receipt
/// recorded with it, and given back with the next claim) so that any process replaces the
/// same bubble. Not thread-safe: used by one thread (a command's), or by the one owner of an
/// app's sinks (`SinkOwner`).
///
/// ```swift
/// let sinks = try SinkChoice.auto.assemble(store: store)
/// try sinks.sink.deliver(delivery)
/// ```
package final class SinkAssembly: @unchecked Sendable {
  // Safe: `sink` and `desktop` are used only on their owner (a command's one thread, an app
  // center's `SinkOwner`); `name` is `Locked`; the rest is immutable.

  /// What deliveries go to.
  package let sink: any DeliverySink
  /// The desktop sink inside, when deliveries go to the desktop: a firing loop attaches it
  /// to dispatch its signals, and badges are published through it.
  package let desktop: DesktopSink?
  /// The portal sink, when deliveries go to the Notification portal (a Flatpak app without
  /// notify's service): its actions are recorded as the desktop's are.
  package let portal: PortalSink?
  /// What the firing loop dispatches the sink's signals for: the desktop sink or the portal's.
  package var attachable: (any LoopAttachable)? { desktop ?? portal }
  /// Who hears what the sinks report, given at construction: an activation or dismissal
  /// recorded, a click that changed what is pending, a switch of `--sink auto`.
  package struct Observers: Sendable {
    /// Called after each activation or dismissal the desktop reported has been recorded.
    package var interaction: (@Sendable (DesktopEvent) -> Void)?
    /// Called after a click changed what is pending (a snooze stored its copy), from the
    /// loop that heard it: a firer's own commits do not wake it, so it re-arms here.
    package var pendingChanged: (@Sendable () -> Void)?
    /// Called with the sink's new name (`desktop`, `stdout`) when `--sink auto` switches,
    /// from the thread that heard it: the daemon's status says where deliveries go now.
    package var sinkChanged: (@Sendable (String) -> Void)?

    /// Observers; none by default.
    package init(
      interaction: (@Sendable (DesktopEvent) -> Void)? = nil, pendingChanged: (@Sendable () -> Void)? = nil,
      sinkChanged: (@Sendable (String) -> Void)? = nil
    ) {
      self.interaction = interaction
      self.pendingChanged = pendingChanged
      self.sinkChanged = sinkChanged
    }
  }

  /// Whether a click on a bubble reaches its app (the interaction router), for the firer
  /// to decide `Delivery.offersDefaultAction` as it prepares claims; nil without a store or
  /// a desktop.
  package let clickReach: (any ClickReachability)?

  private let store: SQLiteStore?
  private let clock: any NotifyClock

  /// Assembles around `base`: a `DesktopSink` gets the sound fallback and history; any
  /// other sink is used as it is.
  ///
  /// `hostApp` is the app this process is (an embedding app's center; nil for the daemon
  /// and `fire-due`): a click on its own notification is handed to it, not launched.
  /// `environment` is where desktop entries are looked up and what a launched app inherits.
  package init(
    _ base: any DeliverySink, store: SQLiteStore?, clock: any NotifyClock = SystemClock(),
    hostApp: String? = nil, observers: Observers = .init(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    // What the sink can do, from the protocols it conforms to (not down-casts through the
    // wrappers): a desktop inside, a switch between sinks.
    let desktop = (base as? any DesktopShowing)?.desktopSink
    // The desktop sink alone gets the sound fallback around it.
    let outer: any DeliverySink = desktop.map { $0 === base ? SoundFallbackSink($0) : base } ?? base
    let portal = base as? PortalSink
    self.desktop = desktop
    self.portal = portal
    self.store = store
    self.clock = clock
    self.sink = PresentingSink(base: outer)
    currentName = Locked(base.name)
    if let switching = base as? any SwitchingSink {
      let currentName = self.currentName
      let sinkChanged = observers.sinkChanged
      switching.onChange = { name in
        currentName.value = name
        sinkChanged?(name)
      }
    }
    let router =
      desktop == nil && portal == nil
      ? nil
      : store.map { store in
        InteractionRouter(
          store: store, clock: clock, hostApp: hostApp,
          launcher: AppLauncher(environment: environment, storePath: store.path))
      }
    // The default action only where a click on the bubble can reach the app.
    self.clickReach = router
    // The sink's event handlers hold the observers, not the assembly: the sink outlives it
    // in a loop that keeps dispatching.
    let (interaction, pendingChanged) = (observers.interaction, observers.pendingChanged)
    if let portal {
      portal.onEvent = { event in
        if router?.handle(event, desktop: nil) == true { pendingChanged?() }
        interaction?(event)
      }
    }
    guard let desktop else { return }
    if let store {
      // Each delivery's bubble is recorded with it and comes back with the next claim
      // (`Delivery.replacing`); only ids taken back without a delivery are told here.
      desktop.storeKeepsServerIDs = true
      desktop.onServerIDsForgotten = { keys in
        try? store.forgetDesktopServerIDs(keys.map { ($0.app, $0.id) })
      }
    }
    desktop.onEvent = { [unowned desktop] event in
      if router?.handle(event, desktop: desktop) == true { pendingChanged?() }
      interaction?(event)
    }
  }

  /// The sink's name (`desktop`, `stdout`, ...); from any thread.
  package var name: String { currentName.value }

  /// The name as the owner last saw it change (`--sink auto` follows the bus).
  private let currentName: Locked<String>

  /// Publishes `count` as `app`'s launcher badge when deliveries go to the desktop; a
  /// dock that cannot be reached is no reason to fail.
  package func publishBadge(app: String, count: Int) {
    guard let desktop else { return }
    let shown = BadgeSync.launcherCount(count, app: app, store: store)
    try? desktop.publishBadge(app: app, count: shown)
  }

  /// Leaves the bubbles this process still shows in the store, for a firer that keeps
  /// running to take over (`ShownBubble`): the server tells clicks only to the connection
  /// that showed a bubble, and this one is about to go. Called when a process stops
  /// showing: `fire-due` and `notify daemon` as they end, an app's `firingService()` as
  /// it stops and its center as it goes away (`notify now` is one). Returns how many were
  /// left.
  @discardableResult
  package func leaveShownBubbles() -> Int {
    guard let desktop, let store else { return 0 }
    let bubbles = desktop.handOverShownBubbles()
    do {
      try store.leave(bubbles, at: clock.now())
      return bubbles.count
    } catch {
      return 0
    }
  }

  /// Takes over the bubbles that stopped processes left for `app` (every app when nil),
  /// if they were left less than `ShownBubble.takeOverWindow` ago: from now on their clicks
  /// and closes come here. A firer calls it on every wake. Logs each bubble taken over
  /// (info) or lost (warning, when the server does not answer); returns how many were
  /// taken over.
  @discardableResult
  package func takeOverLeftBubbles(app: String?, logger: Logger) -> Int {
    // No server on the bus (`--sink auto` on stdout for now): nothing can be taken over.
    guard let desktop, let store, desktop.serverPresent else { return 0 }
    let now = clock.now()
    guard let bubbles = try? store.takeLeftBubbles(app: app, now: now) else { return 0 }
    var taken = 0
    for bubble in bubbles {
      let metadata: Logger.Metadata = [
        "app": "\(bubble.notification.app)", "id": "\(bubble.notification.id)",
        "server_id": "\(bubble.serverID)",
      ]
      do throws(NotifyError) {
        let stored = try? store.desktopServerID(app: bubble.notification.app, id: bubble.notification.id)
        guard try desktop.takeOver(bubble, at: now, stored: stored ?? nil) else {
          logger.info(
            "did not take over a bubble left by a process that stopped: another notification server showed it",
            metadata: metadata)
          continue
        }
        taken += 1
        logger.info("took over a bubble left by a process that stopped", metadata: metadata)
      } catch {
        logger.warning(
          "could not take over a bubble left by a process that stopped: \(error)", metadata: metadata)
      }
    }
    return taken
  }

}

extension DesktopSink: LoopAttachable {}
extension PortalSink: LoopAttachable {}
