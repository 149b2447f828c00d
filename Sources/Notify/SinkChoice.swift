import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `--sink auto|desktop|stdout` (SPEC.md §5).
public enum SinkChoice: String, CaseIterable, Sendable {
  /// The desktop while a notification server is on the session bus, else stdout,
  /// following the bus as servers come and go (`AutoSink`); inside a Flatpak sandbox, the
  /// Notification portal when it answers (`PortalSink`).
  case auto
  /// The freedesktop notification server; fails with exit 69 when none answers.
  case desktop
  /// JSON Lines (or readable lines on a terminal) on stdout.
  case stdout

  /// The sinks this choice stands for, assembled (`SinkAssembly`): with a store, the
  /// desktop's answers go to its history and its server ids are kept there.
  package func assemble(
    store: SQLiteStore?, clock: any NotifyClock = SystemClock(), observers: SinkAssembly.Observers = .init()
  ) throws(NotifyError) -> SinkAssembly {
    SinkAssembly(try makeSink(), store: store, clock: clock, observers: observers)
  }

  /// The bare sink this choice stands for.
  package func makeSink() throws(NotifyError) -> any DeliverySink {
    switch self {
    case .stdout: return StdoutSink()
    case .desktop: return try DesktopSink()
    case .auto:
      // A Flatpak app shows what is due through the Notification portal (docs/sandboxes.md);
      // outside a sandbox the portal is never used.
      if FlatpakApp.current() != nil, let portal = try? PortalSink() { return portal }
      guard let desktop = try? DesktopSink(followingServer: .init()) else { return StdoutSink() }
      return AutoSink(desktop: desktop, stdout: StdoutSink())
    }
  }
}
