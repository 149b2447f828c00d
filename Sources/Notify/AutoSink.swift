import Logging
import NotifyCore
import NotifyDesktop

/// `--sink auto`, following the session bus: deliveries go to the desktop while a
/// notification server owns `org.freedesktop.Notifications`, and to stdout while none
/// does. The switch follows `NameOwnerChanged` both ways (a daemon started before the
/// server, as at login, moves to the desktop when the server arrives), and a call that
/// finds no server (`ServiceUnknown`) goes to stdout at once instead of failing. Each
/// switch is logged and told to `onChange`.
///
/// A D-Bus-activatable server that cannot start yet (at login, before the display) is "no
/// server yet": before a delivery goes to stdout the sink tries to start it, at most once
/// per `activationRetry` and each try bounded by `activationTimeout`
/// (`DesktopSink.startServerIfActivatable()`), and it keeps following the bus.
///
/// Without a session bus there is nothing to follow: `SinkChoice.auto` uses stdout alone.
final class AutoSink: DesktopShowing, SwitchingSink {
  /// The desktop side (sound fallback around the desktop sink).
  let desktop: SoundFallbackSink
  /// The desktop sink it follows, also while deliveries go to stdout.
  var desktopSink: DesktopSink { desktop.desktop }
  /// Where deliveries go while no server is on the bus.
  let stdout: any DeliverySink
  private let logger: Logger
  /// Called with the new `name` when deliveries switch between the desktop and stdout, on
  /// the thread that heard it (the loop's, or the one delivering).
  var onChange: ((String) -> Void)?

  /// Follows `desktop`'s server; `stdout` takes over while there is none.
  init(desktop: DesktopSink, stdout: any DeliverySink, logger: Logger = NotifyLogging.logger("notify.sink")) {
    self.desktop = SoundFallbackSink(desktop)
    self.stdout = stdout
    self.logger = logger
    desktop.onServerPresenceChange = { [unowned self, logger] present, owner in
      defer { self.onChange?(self.name) }
      if present {
        logger.notice(
          "a notification server is on the session bus (\(owner ?? "?")): delivering to the desktop")
      } else {
        logger.notice(
          "the notification server left the session bus: delivering to stdout until one comes back")
      }
    }
  }

  /// `desktop` or `stdout`: where the next delivery goes.
  var name: String { desktop.desktop.serverPresent ? desktop.name : stdout.name }

  /// Delivers to the desktop, or to stdout while no server is on the bus; the receipt is
  /// the one of the sink that took it.
  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    if desktop.desktop.startServerIfActivatable() {
      do {
        return try desktop.deliver(delivery)
      } catch {
        // A server that left between its last signal and this call: stdout takes it.
        guard !desktop.desktop.serverPresent else { throw error }
      }
    }
    return try stdout.deliver(delivery)
  }
}
