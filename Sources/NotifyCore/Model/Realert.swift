import Foundation

/// An alarm: the notification alerts again every `every` seconds, at most `times` times after
/// its delivery, until the user acknowledges it (a click, an action, a dismissal by the user).
///
/// Each re-alert is a copy of the shown notification pending beside it (`RealertPlanner`),
/// made in the write that records the delivery, so that a crash between two re-alerts loses
/// none and every firer delivers them.
public struct Realert: Hashable, Sendable {
  /// Seconds between a delivery and the re-alert that follows it.
  public var every: Int
  /// How many re-alerts follow one delivery at most.
  public var times: Int
  /// Which re-alert this is: 0 for the notification itself, 1 for the first copy, ...
  /// Kept by the store with the copy; what an app or the command line gives is 0.
  public var number: Int
  /// For a copy: the occurrence (1-based) of the notification it re-alerts, kept with the
  /// copy so that it survives being held for quiet hours; 0 for the notification itself.
  public var occurrence: Int

  /// notify repeats at most once a minute; a day is the longest gap an alarm is useful for.
  public static let everyRange = 60...86_400
  /// At most 10 re-alerts: an alarm nobody answers stops within a bounded time.
  public static let timesRange = 1...10

  /// How many re-alerts an alarm given only its interval has.
  public static let defaultTimes = 3

  /// Re-alerts `times` times, `every` seconds apart.
  public init(every: Int, times: Int) {
    self.init(every: every, times: times, number: 0)
  }

  init(every: Int, times: Int, number: Int, occurrence: Int = 0) {
    self.every = every
    self.times = times
    self.number = number
    self.occurrence = occurrence
  }

  /// The alarm given as its two parts (flags, D-Bus keys): nil when neither is given;
  /// `times` alone is refused (usage), `every` alone re-alerts `defaultTimes` times.
  /// Checked against the limits (`Validator.realert`).
  public static func given(every: Int?, times: Int?) throws(NotifyError) -> Realert? {
    guard let every else {
      guard times == nil else {
        throw NotifyError(
          .usage, "\(term: .realertTimes) needs \(term: .realertEvery)",
          fix: "add \(term: .realertEvery), as in 5m, or leave both out")
      }
      return nil
    }
    let realert = Realert(every: every, times: times ?? defaultTimes)
    try Validator.realert(realert)
    return realert
  }

  /// The copy for re-alert `number` of occurrence `occurrence`.
  public func copy(number: Int, occurrence: Int) -> Realert {
    Realert(every: every, times: times, number: number, occurrence: occurrence)
  }

  /// The interval as a person reads it: `5 min`, `2 h`, `1 day`, `90 s`.
  public var intervalText: String { NotificationAction.label(seconds: every) }

  /// How many re-alerts follow this one at most.
  public var remaining: Int { max(0, times - number) }
}
