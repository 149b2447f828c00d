import Foundation

extension StoredNotification {
  /// The row with its next fire instant computed in `zones` as they are now: the instant
  /// that will fire. The store keeps the instant computed when it last advanced the row;
  /// after the system zone moved or the zone data changed that one is stale until a firer
  /// runs, so readers (`list`, `show`, the embedding API) show this one instead.
  public func current(in zones: Zones) -> StoredNotification {
    guard case .wallClock = notification.schedule.fireDate, nextFireDate != nil else { return self }
    var copy = self
    copy.nextFireDate = notification.schedule.occurrence(nextOccurrence, zones: zones)
    return copy
  }

  /// `rows` with current next fire instants, soonest first (ties keep their order, the
  /// store's: earlier scheduled first; rows with none left last).
  public static func current(_ rows: [StoredNotification], in zones: Zones) -> [StoredNotification] {
    let updated = rows.map { $0.current(in: zones) }
    return updated.enumerated().sorted { a, b in
      switch (a.element.nextFireDate, b.element.nextFireDate) {
      case (let x?, let y?) where x != y: x < y
      case (nil, _?): false
      case (_?, nil): true
      default: a.offset < b.offset
      }
    }.map(\.element)
  }
}
