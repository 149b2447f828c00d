import Foundation

extension Validator {
  /// How late is too late, at least a second and at most a year (`LocalNotification.expireLate`).
  public static let expireLateRange: ClosedRange<TimeInterval> = 1...31_536_000

  /// Checks `expireLate` against `expireLateRange`.
  public static func expireLate(_ limit: TimeInterval) throws(NotifyError) {
    guard limit.isFinite, expireLateRange.contains(limit) else {
      throw NotifyError(
        .invalid(.expireLate, violation(limit, expireLateRange)),
        "\(term: .expireLate) is \(described(limit)); a notification expires from 1 second to 1 year late",
        fix: "give a duration from 1s to 365d, such as 30m")
    }
  }

  /// Checks a wake lead against `WakePlanner.leadRange`.
  public static func wakeLead(_ lead: TimeInterval) throws(NotifyError) {
    let range = WakePlanner.leadRange
    guard lead.isFinite, range.contains(lead) else {
      throw NotifyError(
        .invalid(.wakeLead, violation(lead, range)),
        "\(term: .wakeLead) is \(described(lead)); the machine is woken 0 to \(Int(range.upperBound / 60)) minutes ahead",
        fix: "give a duration from 0s to 10m (the default is 1m)")
    }
  }

  /// A duration outside its range in whole seconds, or one that is not a number (or too
  /// large for one: `Int(_:)` of it would trap).
  private static func violation(_ seconds: TimeInterval, _ range: ClosedRange<TimeInterval>)
    -> NotifyError.Violation
  {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return .notANumber("\(seconds)") }
    return .outOfRange(Int(seconds.rounded()), Int(range.lowerBound)...Int(range.upperBound))
  }

  /// A duration in words: whole seconds where it has them.
  private static func described(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite else { return "not a number" }
    return abs(seconds) < 1e15 ? "\(Int(seconds.rounded())) seconds" : "\(seconds) seconds"
  }
}
