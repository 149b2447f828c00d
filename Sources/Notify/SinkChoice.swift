import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore

/// `--sink auto|desktop|stdout` (SPEC.md §5).
public enum SinkChoice: String, CaseIterable, Sendable {
  /// The desktop when a notification server answers on the session bus, else stdout.
  case auto
  /// The freedesktop notification server; fails with exit 69 when none answers.
  case desktop
  /// JSON Lines (or readable lines on a terminal) on stdout.
  case stdout

  /// Makes the sink this choice stands for. With a store, the desktop sink remembers the
  /// server's ids there, so a replacement from any process reuses the same bubble.
  public func makeSink(store: SQLiteStore? = nil) throws(NotifyError) -> any DeliverySink {
    switch self {
    case .stdout: return StdoutSink()
    case .desktop: return try Self.desktop(store: store)
    case .auto: return (try? Self.desktop(store: store)) ?? StdoutSink()
    }
  }

  private static func desktop(store: SQLiteStore?) throws(NotifyError) -> DesktopSink {
    let sink = try DesktopSink()
    guard let store else { return sink }
    if let known = try? store.desktopServerIDs() {
      sink.restoreServerIDs(
        Dictionary(known.map { (DesktopNotificationKey(app: $0.app, id: $0.id), $0.serverID) }) { $1 })
    }
    sink.onServerIDChange = { key, serverID in
      try? store.setDesktopServerID(serverID, app: key.app, id: key.id)
    }
    return sink
  }
}
