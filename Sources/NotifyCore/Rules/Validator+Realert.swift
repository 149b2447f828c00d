import Foundation

extension Validator {
  /// An alarm's limits (`Realert.everyRange`, `Realert.timesRange`).
  public static func realert(_ realert: Realert) throws(NotifyError) {
    let every = Realert.everyRange
    guard every.contains(realert.every) else {
      throw NotifyError(
        .invalidData,
        "\(term: .realertEvery) is \(realert.every) seconds; an alarm re-alerts at most once a minute and at least once a day",
        fix: "give \(every.lowerBound) to \(every.upperBound) seconds (1m to 1d)")
    }
    guard Realert.timesRange.contains(realert.times) else {
      throw NotifyError(
        .invalidData,
        "\(term: .realertTimes) is \(realert.times); an alarm re-alerts \(Realert.timesRange.lowerBound) to \(Realert.timesRange.upperBound) times",
        fix: "give a count from \(Realert.timesRange.lowerBound) to \(Realert.timesRange.upperBound)")
    }
    guard (0...realert.times).contains(realert.number) else {
      throw NotifyError(
        .invalidData, "re-alert \(realert.number) of \(realert.times) does not exist",
        fix: "schedule the alarm again")
    }
  }
}
