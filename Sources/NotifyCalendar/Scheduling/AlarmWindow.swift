import Foundation

/// The rolling window: which of an app's calendar alarms are pending in the store.
///
/// A calendar may have thousands of alarm instants, an app at most 64 pending
/// notifications (SPEC.md §3, which would discard the furthest). So only the soonest ones
/// are pending, as many as leave `headroom` free for what else the app has pending
/// (snoozed and re-alert copies among them); as they are delivered (or cancelled, or held
/// for quiet hours) the next come in. A pure decision over values: the store's state read
/// in the same transaction that carries the plan out.
///
/// Each calendar keeps a watermark: alarm instants at or before it are done (shown, or
/// before the calendar was added) and are never scheduled again. It follows the earliest
/// alarm still outstanding, never passes `now`, and never goes back. Between it and now,
/// alarms that were scheduled and are gone from the store are remembered as `done` by id,
/// so that a rescan does not bring them back, and for a week (`rememberDone`) so that an
/// acknowledgement can be written back.
public enum AlarmWindow {
  /// Pending notifications an app keeps free of calendar alarms.
  public static let headroom = 8
  /// An app's pending limit (SPEC.md §3).
  public static let pendingLimit = 64
  /// How long a done alarm is remembered after it went off: an acknowledgement written
  /// back (`--write-back`) finds its item through it, and the user may answer late.
  public static let rememberDone: TimeInterval = 7 * 86_400

  /// An alarm the expansion found: its notification id, calendar, instant and a digest of
  /// what would be stored (an edit that changes it replaces the stored one).
  public struct Candidate: Hashable, Sendable {
    public var id: String
    public var calendar: String
    public var fireDate: Date
    public var digest: String

    public init(id: String, calendar: String, fireDate: Date, digest: String) {
      self.id = id
      self.calendar = calendar
      self.fireDate = fireDate
      self.digest = digest
    }
  }

  /// What the store remembers of an alarm it was given.
  public struct Managed: Hashable, Sendable {
    public enum State: String, Sendable {
      /// Scheduled (it may have been delivered since: `isPending` tells).
      case pending
      /// Delivered, cancelled or held: not to be scheduled again.
      case done
    }

    public var id: String
    public var calendar: String
    public var fireDate: Date
    public var state: State
    public var digest: String

    public init(id: String, calendar: String, fireDate: Date, state: State, digest: String) {
      self.id = id
      self.calendar = calendar
      self.fireDate = fireDate
      self.state = state
      self.digest = digest
    }
  }

  /// What to do to the store.
  public struct Plan: Equatable, Sendable {
    /// Pending alarms to take out (no longer in the calendar, or past the window).
    public var cancel: [String] = []
    /// Candidates to store (new, or changed since they were stored).
    public var schedule: [Candidate] = []
    /// Alarms that left the store since the last look (delivered, cancelled, held): done now.
    public var consumed: [String] = []
    /// Done alarms the watermark has passed: forgotten.
    public var forget: [String] = []
    /// Each calendar's new watermark.
    public var watermarks: [String: Date] = [:]
  }

  /// The plan for one app: `candidates` (every calendar of the app, after each one's
  /// watermark, soonest first), `managed` (what the store remembers of them), the ids of
  /// the app's pending notifications that are managed originals still pending,
  /// `otherPending` (the app's pending rows that are not: its own notifications, snoozed
  /// and re-alert copies), the calendars' `watermarks` and `now`.
  public static func plan(
    candidates: [Candidate], managed: [Managed], stillPending: Set<String>, otherPending: Int,
    watermarks: [String: Date], now: Date
  ) -> Plan {
    var plan = Plan()
    var byID: [String: Managed] = [:]
    for row in managed { byID[row.id] = row }
    // What was stored and is no longer pending was delivered, cancelled or held: done.
    for row in managed where row.state == .pending && !stillPending.contains(row.id) {
      plan.consumed.append(row.id)
      byID[row.id]?.state = .done
    }
    let capacity = max(0, pendingLimit - headroom - otherPending)
    var chosen: [Candidate] = []
    var chosenIDs: Set<String> = []
    for candidate in candidates where chosen.count < capacity {
      if byID[candidate.id]?.state == .done || !chosenIDs.insert(candidate.id).inserted { continue }
      chosen.append(candidate)
    }
    for row in byID.values.sorted(by: { $0.fireDate < $1.fireDate }) where row.state == .pending {
      if !chosenIDs.contains(row.id) { plan.cancel.append(row.id) }
    }
    for candidate in chosen {
      if let row = byID[candidate.id], row.state == .pending, row.digest == candidate.digest { continue }
      plan.schedule.append(candidate)
    }
    // Each calendar's watermark follows its earliest outstanding alarm, never past now,
    // never back.
    var earliest: [String: Date] = [:]
    for candidate in chosen {
      earliest[candidate.calendar] = min(earliest[candidate.calendar] ?? .distantFuture, candidate.fireDate)
    }
    for (calendar, old) in watermarks {
      let outstanding = earliest[calendar].map { $0 - 0.001 } ?? now
      let mark = max(old, min(now, outstanding))
      plan.watermarks[calendar] = mark
    }
    for row in byID.values where row.state == .done && row.fireDate < now - rememberDone {
      if let mark = plan.watermarks[row.calendar], row.fireDate <= mark { plan.forget.append(row.id) }
    }
    plan.forget.sort()
    return plan
  }
}
