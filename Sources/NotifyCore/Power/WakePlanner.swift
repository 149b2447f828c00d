import Foundation

/// When a firer's wake-capable timer is armed: a little ahead of the earliest pending
/// notification that wakes the machine (`LocalNotification.wake`, where the user lets its
/// app), so that the session is up and the bubble and sound come at the instant itself.
///
/// Pure: the firing loop asks after every wake-up with the store's earliest waking instant
/// (`FiringOutlook.wake`) and `now`, and arms (or disarms) its alarm timer at the answer.
///
/// ```swift
/// let at = WakePlanner.alarm(for: outlook.wake, now: now)   // 06:59:00 for 07:00 with a 60 s lead
/// ```
public enum WakePlanner {
  /// The wake lead when the user has not set one: a minute covers a laptop's resume and
  /// the session's reconnects with room to spare.
  public static let defaultLead: TimeInterval = 60
  /// At most 10 minutes ahead: a machine woken longer ahead is likely to be put to sleep
  /// again by its idle timer before the instant.
  public static let leadRange: ClosedRange<TimeInterval> = 0...600

  /// The earliest instant a waking notification is due, and how far ahead to wake for it.
  public struct Due: Hashable, Sendable {
    /// The instant.
    public var instant: Date
    /// The wake lead in force (`notify settings --wake-lead`).
    public var lead: TimeInterval

    /// Creates the fact.
    public init(instant: Date, lead: TimeInterval = WakePlanner.defaultLead) {
      self.instant = instant
      self.lead = lead
    }
  }

  /// When to arm the wake-capable timer for `due` at `now`; nil disarms it:
  /// - the lead before the instant, while that is still ahead;
  /// - the instant itself once inside the lead (the machine may have been woken for it and
  ///   put to sleep again before it: waking at the instant is the best left);
  /// - nil once the instant has come (the firer delivers it now) or when nothing wakes.
  public static func alarm(for due: Due?, now: Date) -> Date? {
    guard let due, due.instant > now else { return nil }
    let ahead = due.instant - max(0, due.lead)
    return ahead > now ? ahead : due.instant
  }
}
