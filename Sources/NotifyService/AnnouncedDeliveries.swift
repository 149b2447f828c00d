import NotifyCore

/// The deliveries the service announced as the daemon's firer handed them over, by
/// notification, occurrence and instant: their records, read from history later, are not
/// announced again. A record read that was never announced (what quiet hours released, a
/// delivery by another process) is, as before. Bounded: a record that never comes (its
/// write failed) is forgotten with the rest once `limit` are waiting.
struct AnnouncedDeliveries {
  private struct Key: Hashable {
    var app: String
    var id: String
    var occurrence: Int?
    var fireDate: Int64?
  }
  private var waiting: Set<Key> = []
  /// The most announcements waiting for their records.
  static let limit = 4096

  /// `event` (a delivery's) was announced.
  mutating func insert(_ event: HistoryEvent) {
    if waiting.count >= Self.limit { waiting.removeAll() }
    waiting.insert(Self.key(event))
  }

  /// Whether `event` (a delivery's record) was announced; forgets it.
  mutating func take(_ event: HistoryEvent) -> Bool {
    waiting.remove(Self.key(event)) != nil
  }

  private static func key(_ event: HistoryEvent) -> Key {
    // (to the millisecond, as the store keeps it)
    Key(
      app: event.app, id: event.notificationID, occurrence: event.occurrence,
      fireDate: event.fireDate.map(RFC3339.millisecondsSince1970))
  }
}
