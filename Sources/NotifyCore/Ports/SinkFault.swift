/// A fault of the sink itself, not of the notification it was given: a stdout whose reader
/// stopped reading or went away, a desktop whose server left the bus. A firer never records
/// a delivery `failed` because of one (SPEC.md §6: a sink fault is retried): it gives the
/// occurrence back and tries again later (`stalled`), or stops (`gone`).
public struct SinkFault: Error, Hashable, Sendable, CustomStringConvertible {
  /// How lasting the fault is.
  public enum Kind: Hashable, Sendable {
    /// Nothing of the delivery was shown and the sink may take it later (a stdout reader
    /// that does not read): try again after a while.
    case stalled
    /// The sink can never take a delivery again in this process (stdout closed by its
    /// reader): stop, so that a restarted process gets a working one.
    case gone
  }

  /// How lasting it is.
  public var kind: Kind
  /// The sink's name (`stdout`).
  public var sink: String
  /// What happened, for logs and messages (`its reader has not read for 1 s`).
  public var reason: String

  /// Creates a fault.
  public init(_ kind: Kind, sink: String, reason: String) {
    self.kind = kind
    self.sink = sink
    self.reason = reason
  }

  /// `the stdout sink is stalled: ...` / `the stdout sink is gone: ...`.
  public var description: String {
    "the \(sink) sink \(kind == .stalled ? "is stalled" : "is gone"): \(reason)"
  }
}

extension NotifyError {
  /// A sink fault as an error of `present` and `notify now`: unavailable (69), as for a
  /// desktop without a server. The notification was certainly not shown, so it may be
  /// presented again (unlike a timeout, 75, after which the server may still show it).
  public init(_ fault: SinkFault) {
    switch fault.kind {
    case .stalled:
      self.init(.unavailable, ErrorText("\(fault)"), fix: ErrorText("try again once its reader reads again"))
    case .gone:
      self.init(.unavailable, ErrorText("\(fault)"), fix: "give it a reader, or use \(term: .desktopSink)")
    }
  }
}
