import Notify

/// Whether the user is at the keyboard: the rule behind the client's foreground
/// presentation. While a line was typed in the last `window` (60 s), the client shows its
/// notifications in the transcript only (`PresentationOptions.none`); after that, on the
/// desktop again. Time comes in as an argument.
///
/// ```swift
/// var typing = TypingActivity()
/// typing.typed(at: t0)
/// typing.isRecent(now: t0 + .seconds(59))  // true
/// typing.isRecent(now: t0 + .seconds(60))  // false
/// ```
struct TypingActivity: Hashable, Sendable {
  /// How long a typed line keeps the client in the foreground.
  static let window: Duration = .seconds(60)

  /// When the last line was typed; nil before the first.
  private(set) var lastTyped: ContinuousClock.Instant?

  /// A line was typed at `instant`. An instant before the last one (read on another thread
  /// a moment earlier) does not move it back.
  mutating func typed(at instant: ContinuousClock.Instant) {
    lastTyped = max(lastTyped ?? instant, instant)
  }

  /// Whether a line was typed less than `window` before `now`: from the instant it was
  /// typed (or a `now` read just before it) up to, not including, `window` later.
  func isRecent(now: ContinuousClock.Instant) -> Bool {
    guard let lastTyped else { return false }
    return now < lastTyped + Self.window
  }

  /// How the client's notifications are presented at `now`: nowhere but the transcript
  /// while the user types, fully otherwise.
  func presentation(now: ContinuousClock.Instant) -> PresentationOptions {
    isRecent(now: now) ? .none : .all
  }
}
