import Foundation

/// What an alarm (`Realert`) does next: after a delivery, whether a re-alert follows and
/// when; after something the user did, whether that acknowledged it (which stops it).
///
/// Pure: the store asks it inside the write that records a delivery or an interaction and
/// carries out the answer in the same transaction.
public enum RealertPlanner {
  /// A re-alert to store: a copy of the delivered notification, due at `fireDate`.
  public struct Next: Hashable, Sendable {
    /// Which re-alert it is (1 for the first).
    public var number: Int
    /// When it is due: the delivery's instant plus `Realert.every`.
    public var fireDate: Date
    /// How many re-alerts may follow it.
    public var remaining: Int
    /// The copy to store: the notification as delivered, firing once at `fireDate`,
    /// carrying `number`.
    public var copy: LocalNotification
  }

  /// The re-alert that follows delivering occurrence `occurrence` of `notification` at
  /// `deliveredAt` (for a copy: the occurrence it re-alerts), nil when none:
  /// it has no `realert`, its re-alerts are used up, the user's settings kept it off the
  /// screen (`alerted` false: a re-alert would be as unseen), or the user acknowledged it
  /// already (`acknowledged`: history has an acknowledgement since `acknowledgedSince`, a
  /// click that came while the delivery was being recorded).
  public static func next(
    after notification: LocalNotification, occurrence: Int, deliveredAt: Date, alerted: Bool = true,
    acknowledged: Bool = false
  ) -> Next? {
    guard alerted, !acknowledged, let realert = notification.realert, realert.number < realert.times else {
      return nil
    }
    let number = realert.number + 1
    let fireDate = deliveredAt + TimeInterval(realert.every)
    var copy = notification
    copy.schedule = Schedule(fireDate: .instant(fireDate))
    copy.realert = realert.copy(number: number, occurrence: max(occurrence, 1))
    copy.deliveredCount = 0
    copy.createdAt = deliveredAt
    return Next(number: number, fireDate: fireDate, remaining: realert.times - number, copy: copy)
  }

  /// The occurrence a re-alert after delivering occurrence `delivered` of `notification`
  /// re-alerts: for a copy, the one it re-alerts itself (kept in its `Realert`, or else the
  /// one its row says, `row`); for the notification, `delivered`.
  public static func occurrence(of notification: LocalNotification, delivered: Int, row: Int? = nil) -> Int {
    guard let realert = notification.realert, realert.number > 0 else { return max(delivered, 1) }
    if realert.occurrence > 0 { return realert.occurrence }
    return max(row ?? delivered, 1)
  }

  /// Since when an acknowledgement stops what follows this delivery: for a re-alert copy,
  /// since the delivery it follows (its `createdAt`: a click on that bubble while the copy
  /// was being handed over); for the notification itself, since this delivery.
  public static func acknowledgedSince(_ notification: LocalNotification, deliveredAt: Date) -> Date {
    (notification.realert?.number ?? 0) > 0 ? notification.createdAt : deliveredAt
  }

  /// Whether recording `kind` with `reason` for a notification acknowledges it: a click or
  /// an action (`activated`, any key), a snooze (`snoozed`: the snoozed copy is a new alarm),
  /// or a close by the user. A bubble that expired or that
  /// a program closed (`closed-by-call`, a withdrawal) was not answered by anyone.
  public static func acknowledges(_ kind: HistoryEvent.Kind, reason: String?) -> Bool {
    switch kind {
    case .activated, .snoozed: true
    case .dismissed: reason == dismissedByUser
    default: false
    }
  }

  /// The close reason of a bubble the user closed, as history records it.
  public static let dismissedByUser = "dismissed-by-user"
}
