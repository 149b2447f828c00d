import Foundation

extension Validator {
  /// How late is too late, at least a second and at most a year (`LocalNotification.expireLate`).
  public static let expireLateRange: ClosedRange<TimeInterval> = 1...31_536_000

  /// Checks `expireLate` against `expireLateRange`.
  public static func expireLate(_ limit: TimeInterval) throws(NotifyError) {
    guard limit.isFinite, expireLateRange.contains(limit) else {
      throw NotifyError(
        .invalidData,
        "\(term: .expireLate) is \(limit.isFinite ? "\(Int(limit.rounded())) seconds" : "not a number"); a notification expires from 1 second to 1 year late",
        fix: "give a duration from 1s to 365d, such as 30m")
    }
  }

  /// Checks a wake lead against `WakePlanner.leadRange`.
  public static func wakeLead(_ lead: TimeInterval) throws(NotifyError) {
    let range = WakePlanner.leadRange
    guard lead.isFinite, range.contains(lead) else {
      throw NotifyError(
        .invalidData,
        "\(term: .wakeLead) is \(lead.isFinite ? "\(Int(lead.rounded())) seconds" : "not a number"); the machine is woken 0 to \(Int(range.upperBound / 60)) minutes ahead",
        fix: "give a duration from 0s to 10m (the default is 1m)")
    }
  }
}
