import Foundation

/// What one claim transaction does to the store (SPEC.md §6), decided from the rows it
/// read: which abandoned claims to take over and how late they now are, which due rows
/// to claim or record as missed, and where each row moves next.
///
/// Pure: the store reads the rows inside its transaction, asks the planner, and carries
/// out the steps in order, in the same transaction. Liveness of a claim's owner is a fact
/// the store finds out (`/proc`) and passes in.
///
/// ```swift
/// let plan = ClaimPlanner.plan(claims: others, due: rows, now: now, zones: zones, misfireGrace: nil, limit: 64)
/// for step in plan.steps { try execute(step) }
/// ```
public enum ClaimPlanner {
  /// A claim row as the store holds it.
  public struct ClaimRow: Hashable, Sendable {
    /// The claimed notification's row.
    public var rowID: Int64
    /// 0-based occurrence index.
    public var occurrence: Int
    /// When the occurrence was due.
    public var fireDate: Date
    /// Whether it was late when claimed.
    public var late: Bool
    /// How many earlier occurrences it stands for.
    public var coalesced: Int
    /// Whether the firer that holds it still runs (a fact the store finds out: `/proc`).
    public var ownerAlive: Bool
    /// When its owner claimed or last renewed it; nil for a claim of a dead owner.
    public var claimedAt: Date?
    /// The notification as it was when claimed; nil when the snapshot cannot be read.
    public var notification: LocalNotification?
    /// When its (dead) owner handed it to the sink, by the owner's hand-off journal; nil
    /// when it never did.
    public var handedOverAt: Date?

    /// Creates a claim row.
    public init(
      rowID: Int64, occurrence: Int, fireDate: Date, late: Bool, coalesced: Int, ownerAlive: Bool,
      claimedAt: Date? = nil, notification: LocalNotification?, handedOverAt: Date? = nil
    ) {
      self.claimedAt = claimedAt
      self.handedOverAt = handedOverAt
      self.rowID = rowID
      self.occurrence = occurrence
      self.fireDate = fireDate
      self.late = late
      self.coalesced = coalesced
      self.ownerAlive = ownerAlive
      self.notification = notification
    }
  }

  /// One change to the store, in the order the plan lists them.
  public enum Step: Hashable, Sendable {
    /// Moves a row to its next occurrence (`nextFireDate` nil: it leaves the pending list),
    /// noting the zone a `local` row was computed in.
    case advance(rowID: Int64, nextOccurrence: Int, nextFireDate: Date?, resolvedZone: String?)
    /// Inserts a claim for this firer; the store keeps it only if no claim of the same
    /// occurrence exists (a safety net: indexes only move forward).
    case claim(Claim)
    /// Makes an abandoned claim this firer's.
    case takeOver(Claim)
    /// Records as delivered an abandoned claim its dead owner had handed over already.
    case recordHandOff(HandOff)
    /// Deletes an abandoned claim that cannot be delivered (its snapshot is unreadable).
    case drop(rowID: Int64, occurrence: Int)
    /// Appends a history event (`missed` past the misfire grace).
    case record(HistoryEvent)
  }

  /// The steps of one claim transaction.
  public struct Plan: Hashable, Sendable {
    /// What to do, in order.
    public var steps: [Step] = []

    /// Creates an empty plan.
    public init() {}
  }

  /// Whether a claim is abandoned at `now`, and so this firer's to take over: its owner is
  /// dead, or alive but past its lease (`ClaimLease`: stopped, or stuck). The store reads the
  /// owner's hand-off journal only for these.
  public static func isAbandoned(_ row: ClaimRow, now: Date) -> Bool {
    guard row.ownerAlive else { return true }
    guard let claimedAt = row.claimedAt else { return false }
    return ClaimLease.isExpired(claimedAt: claimedAt, now: now)
  }

  /// Plans one claim at `now`: the claims of other firers due by `now` that are abandoned
  /// (`isAbandoned`) first (of `app` only, when given), then `due` rows (read soonest
  /// first), at most `limit` claims in all.
  public static func plan(
    claims: [ClaimRow], due: [StoredNotification], now: Date, zones: Zones,
    misfireGrace: TimeInterval?, limit: Int, app: String? = nil
  ) -> Plan {
    var plan = Plan()
    var claimed = 0
    for row in claims.sorted(by: { ($0.fireDate, $0.rowID) < ($1.fireDate, $1.rowID) })
    where claimed < limit && row.fireDate <= now && isAbandoned(row, now: now) {
      guard let notification = row.notification else {
        // An unreadable snapshot cannot be delivered: drop it rather than trip on it each wake-up.
        plan.steps.append(.drop(rowID: row.rowID, occurrence: row.occurrence))
        continue
      }
      if let app, notification.app != app { continue }
      let late = row.late || now.timeIntervalSince(row.fireDate) > Delivery.lateTolerance
      if row.handedOverAt == nil, let limit = notification.expireLate,
        now.timeIntervalSince(row.fireDate) > limit
      {
        // Too late to show by its own word (a firer died holding it, and nobody took it
        // over in time): recorded missed, as a due row past it would be.
        plan.steps.append(.drop(rowID: row.rowID, occurrence: row.occurrence))
        plan.steps.append(
          .record(
            missed(
              notification, occurrence: row.occurrence, fireDate: row.fireDate, coalesced: row.coalesced,
              reason: MissedSummary.expiredReason, now: now)))
        continue
      }
      if let handedOverAt = row.handedOverAt {
        // Shown before its firer died: record it, never show it again.
        let delivery = Delivery(
          notification: notification, occurrence: row.occurrence + 1, fireDate: row.fireDate,
          deliveredAt: handedOverAt,
          late: row.late || handedOverAt.timeIntervalSince(row.fireDate) > Delivery.lateTolerance)
        plan.steps.append(
          .recordHandOff(
            HandOff(
              claim: Claim(
                rowID: row.rowID, occurrence: row.occurrence, fireDate: row.fireDate, late: delivery.late,
                coalesced: row.coalesced, notification: notification), delivery: delivery)))
        continue
      }
      claimed += 1
      plan.steps.append(
        .takeOver(
          Claim(
            rowID: row.rowID, occurrence: row.occurrence, fireDate: row.fireDate, late: late,
            coalesced: row.coalesced, notification: notification)))
    }
    for stored in due where claimed < limit {
      let steps = steps(for: stored, now: now, zones: zones, misfireGrace: misfireGrace)
      claimed += steps.filter { if case .claim = $0 { true } else { false } }.count
      plan.steps += steps
    }
    return plan
  }

  /// The steps for one due row: claim its due occurrence (or record it missed) and move
  /// it on; a row whose stored instant was stale (the zone moved, the schedule ended) is
  /// only recomputed.
  static func steps(
    for stored: StoredNotification, now: Date, zones: Zones, misfireGrace: TimeInterval?
  )
    -> [Step]
  {
    let notification = stored.notification
    let schedule = notification.schedule
    let zone = schedule.resolvedZone(zones: zones)
    // The notification's own limit where it is the tighter one (`expireLate`).
    var ownLimit: TimeInterval?
    if let own = notification.expireLate, own < (misfireGrace ?? .infinity) { ownLimit = own }
    guard
      let due = DuePlanner.plan(
        schedule, nextIndex: stored.nextOccurrence, now: now, zones: zones,
        misfireGrace: ownLimit ?? misfireGrace
      )
    else {
      let next = schedule.occurrence(stored.nextOccurrence, zones: zones)
      return [
        .advance(
          rowID: stored.rowID, nextOccurrence: stored.nextOccurrence, nextFireDate: next, resolvedZone: zone)
      ]
    }
    let occurrence = due.action.occurrence
    let advance = Step.advance(
      rowID: stored.rowID, nextOccurrence: due.next?.index ?? occurrence.index + 1,
      nextFireDate: due.next?.fireDate, resolvedZone: zone)
    switch due.action {
    case .miss(let occurrence):
      return [
        advance,
        .record(
          missed(
            notification, occurrence: occurrence.index, fireDate: occurrence.fireDate,
            coalesced: occurrence.coalesced,
            reason: ownLimit != nil ? MissedSummary.expiredReason : MissedSummary.misfireReason, now: now)),
      ]
    case .deliver(let occurrence):
      return [
        advance,
        .claim(
          Claim(
            rowID: stored.rowID, occurrence: occurrence.index, fireDate: occurrence.fireDate,
            late: occurrence.late, coalesced: occurrence.coalesced, notification: notification)),
      ]
    }
  }

  /// The `missed` event of occurrence `occurrence` (0-based) due at `fireDate`, with how
  /// late it was (`detail.lateBy`, seconds).
  static func missed(
    _ notification: LocalNotification, occurrence: Int, fireDate: Date, coalesced: Int, reason: String,
    now: Date
  ) -> HistoryEvent {
    var detail = HistoryEvent.detail(of: notification)
    if coalesced > 0 { detail["coalesced"] = .int(Int64(coalesced)) }
    detail["lateBy"] = .int(Int64(max(0, now.timeIntervalSince(fireDate)).rounded()))
    return HistoryEvent(
      at: now, app: notification.app, notificationID: notification.id, kind: .missed, reason: reason,
      occurrence: occurrence + 1, fireDate: fireDate, late: true, detail: detail)
  }

  /// Rows whose next instant was computed in other zones (`local` rows after the system
  /// zone moved; any wall-clock row after the zone data changed): the steps that compute
  /// it again in `zones`.
  public static func refresh(_ rows: [StoredNotification], zones: Zones) -> [Step] {
    rows.map { stored in
      .advance(
        rowID: stored.rowID, nextOccurrence: stored.nextOccurrence,
        nextFireDate: stored.notification.schedule.occurrence(stored.nextOccurrence, zones: zones),
        resolvedZone: stored.notification.schedule.resolvedZone(zones: zones))
    }
  }
}
