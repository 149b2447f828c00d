import Foundation

extension Validator {
  /// An alarm's limits (`Realert.everyRange`, `Realert.timesRange`).
  public static func realert(_ realert: Realert) throws(NotifyError) {
    let every = Realert.everyRange
    guard every.contains(realert.every) else {
      throw NotifyError(.invalid(.realertEvery, .outOfRange(realert.every, every)))
    }
    guard Realert.timesRange.contains(realert.times) else {
      throw NotifyError(.invalid(.realertTimes, .outOfRange(realert.times, Realert.timesRange)))
    }
    guard (0...realert.times).contains(realert.number) else {
      throw NotifyError(.invalid(.realertNumber, .notExisting(realert.number, of: realert.times)))
    }
  }
}
