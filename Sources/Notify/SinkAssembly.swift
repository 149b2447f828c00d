import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore

/// The sinks of one process, put together in one place for every way in (`notify daemon`,
/// `fire-due`, `notify now`, an embedding app), as swift-log puts its handlers together at
/// bootstrap: the chosen sink; around the desktop sink, the sound fallback for servers
/// without `sound` (SPEC.md §4); what an app in the foreground left out of a delivery
/// taken out (`PresentingSink`); the desktop's answers (`ActionInvoked`,
/// `NotificationClosed`) recorded in history and a click taken back to its app
/// (`InteractionRouter`); the server ids kept in the store so that any process replaces
/// the same bubble; and one owner for all of it (`SerializedSink`).
///
/// ```swift
/// let sinks = try SinkChoice.auto.assemble(store: store)
/// try sinks.sink.deliver(delivery)
/// ```
public final class SinkAssembly: @unchecked Sendable {
  // Safe: `desktop` is only used as the owner `sink` allows (its deliveries go through
  // `sink`, badges through `publishBadge`, which takes the owner); the rest is immutable or
  // `Locked`.

  /// What deliveries go to.
  public let sink: SerializedSink
  /// The desktop sink inside, when deliveries go to the desktop: a firing loop attaches it
  /// to dispatch its signals, and badges are published through it.
  public let desktop: DesktopSink?
  /// Called after each activation or dismissal the desktop reported has been recorded.
  public var onInteraction: (@Sendable (DesktopEvent) -> Void)? {
    get { observer.value }
    set { observer.value = newValue }
  }

  /// Shared with the desktop sink's event handler, which must not hold the assembly: the
  /// sink outlives it in a loop that keeps dispatching.
  private let observer = Locked<(@Sendable (DesktopEvent) -> Void)?>(nil)

  /// Assembles around `base`: a `DesktopSink` gets the sound fallback and history; any
  /// other sink is used as it is.
  ///
  /// `hostApp` is the app this process is (an embedding app's center; nil for the daemon
  /// and `fire-due`): a click on its own notification is handed to it, not launched.
  /// `environment` is where desktop entries are looked up and what a launched app inherits.
  public init(
    _ base: any DeliverySink, store: SQLiteStore?, clock: any NotifyClock = SystemClock(),
    hostApp: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    var outer = base
    var desktop: DesktopSink?
    if let fallback = base as? SoundFallbackSink {
      desktop = fallback.desktop
    } else if let plain = base as? DesktopSink {
      desktop = plain
      outer = SoundFallbackSink(plain)
    }
    self.desktop = desktop
    self.sink = SerializedSink(PresentingSink(base: outer))
    guard let desktop else { return }
    if let store {
      if let known = try? store.desktopServerIDs() {
        desktop.restoreServerIDs(
          Dictionary(known.map { (DesktopNotificationKey(app: $0.app, id: $0.id), $0.serverID) }) { $1 })
      }
      desktop.onServerIDChange = { key, serverID in
        try? store.setDesktopServerID(serverID, app: key.app, id: key.id)
      }
    }
    let observer = self.observer
    let router = store.map { store in
      InteractionRouter(
        store: store, clock: clock, hostApp: hostApp,
        launcher: AppLauncher(environment: environment, storePath: store.path))
    }
    desktop.onEvent = { [unowned desktop] event in
      router?.handle(event, desktop: desktop)
      observer.value?(event)
    }
  }

  /// The sink's name (`desktop`, `stdout`, ...).
  public var name: String { sink.name }

  /// Publishes `count` as `app`'s launcher badge when deliveries go to the desktop; a
  /// dock that cannot be reached is no reason to fail.
  public func publishBadge(app: String, count: Int) {
    guard let desktop else { return }
    sink.exclusively { try? desktop.publishBadge(app: app, count: count) }
  }

}

extension DesktopSink: LoopAttachable {}
