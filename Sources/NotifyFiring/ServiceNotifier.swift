import CSystemd
import Foundation

/// Talks to the service manager through `$NOTIFY_SOCKET` (sd_notify): READY, STATUS,
/// STOPPING. Does nothing when not run by systemd (no `NOTIFY_SOCKET`).
public struct ServiceNotifier: Sendable {
  /// Creates a notifier for this process.
  public init() {}

  /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
  ///
  /// Asked at every wake-up of the loop (its status line): `getenv` reads the one variable,
  /// where `ProcessInfo.environment` built a dictionary of the whole environment each time
  /// (as much of the daemon's time as a `Schedule` call itself, with a client calling the
  /// D-Bus service back to back: BENCHMARKS.md).
  public var isActive: Bool {
    guard let value = getenv("NOTIFY_SOCKET") else { return false }
    return value.pointee != 0
  }

  /// The watchdog interval the service manager expects pings at, or nil when off.
  public var watchdogInterval: TimeInterval? {
    var microseconds: UInt64 = 0
    guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
    return TimeInterval(microseconds) / 1_000_000
  }

  /// `READY=1` with a status line: startup is complete.
  public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

  /// `STATUS=...`: a one-line summary for `systemctl status`.
  public func status(_ text: String) { send("STATUS=\(text)") }

  /// `WATCHDOG=1`: still alive.
  public func watchdog() { send("WATCHDOG=1") }

  /// `STOPPING=1`: shutting down cleanly.
  public func stopping() { send("STOPPING=1") }

  private func send(_ state: String) {
    guard isActive else { return }
    _ = sd_notify(0, state)
  }
}
