import NotifyCore

/// A sink that shows deliveries on the desktop through a `DesktopSink`: the desktop sink
/// itself, or a sink around it (the sound fallback, `--sink auto`). What a sink can do beyond
/// delivering is asked of this protocol, not found by down-casting through the wrappers:
/// the assembly takes from it the bus connection to dispatch on the firing loop, the
/// server's answers (clicks, closes), its capabilities and the launcher badges.
public protocol DesktopShowing: DeliverySink {
  /// The desktop sink inside (itself, for the desktop sink).
  var desktopSink: DesktopSink { get }
}

extension DesktopSink: DesktopShowing {
  /// Itself.
  public var desktopSink: DesktopSink { self }
}
