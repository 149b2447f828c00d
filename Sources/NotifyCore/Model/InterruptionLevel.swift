/// How strongly a notification may interrupt (UNNotificationInterruptionLevel).
/// It maps onto the freedesktop urgency and onto quiet hours:
///
/// | level | urgency | quiet hours |
/// |---|---|---|
/// | `passive` | low (no sound; servers that honour it show no banner) | held |
/// | `active` (default) | normal | held |
/// | `timeSensitive` | normal | breaks through when the user lets the app (`notify settings APP --time-sensitive on`) |
/// | `critical` | critical | always breaks through |
public enum InterruptionLevel: String, CaseIterable, Hashable, Sendable {
  case passive, active, timeSensitive, critical

  /// The freedesktop urgency this level is sent with.
  public var urgency: Urgency {
    switch self {
    case .passive: .low
    case .active, .timeSensitive: .normal
    case .critical: .critical
    }
  }

  /// The level an urgency alone stands for (`--urgency`, rows stored before levels).
  public init(_ urgency: Urgency) {
    switch urgency {
    case .low: self = .passive
    case .normal: self = .active
    case .critical: self = .critical
    }
  }

  /// Parses `passive`, `active`, `timeSensitive` (or `time-sensitive`) and `critical`.
  public init?(text: String) {
    if text == "time-sensitive" {
      self = .timeSensitive
    } else {
      self.init(rawValue: text)
    }
  }
}
