import Foundation
import NotifyCore

/// `--sink auto|desktop|stdout` (SPEC.md §5).
public enum SinkChoice: String, CaseIterable, Sendable {
  /// The desktop when a notification server answers on the session bus, else stdout.
  case auto
  /// The freedesktop notification server; fails with exit 69 when none answers.
  case desktop
  /// JSON Lines (or readable lines on a terminal) on stdout.
  case stdout

  /// Makes the sink this choice stands for.
  public func makeSink() throws(NotifyError) -> any DeliverySink {
    switch self {
    case .stdout: return StdoutSink()
    case .desktop: return try DesktopSinkFactory.make()
    case .auto: return (try? DesktopSinkFactory.make()) ?? StdoutSink()
    }
  }
}

/// Where the desktop sink comes from; replaced when the desktop adapter lands.
enum DesktopSinkFactory {
  static func make() throws(NotifyError) -> any DeliverySink {
    throw NotifyError(
      .unavailable, "no notification server answers on the session bus",
      fix: "start a notification daemon (e.g. dunst) in your desktop session, or use --sink stdout")
  }
}
