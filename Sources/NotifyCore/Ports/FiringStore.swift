import Foundation

/// Who is firing: enough to tell, from another process, whether the firer is still alive,
/// so that claims left by a crashed firer are taken over (SPEC.md §6).
public struct FirerIdentity: Hashable, Sendable, CustomStringConvertible {
  /// Process id.
  public var pid: Int32
  /// The process start time in clock ticks since boot (`/proc/PID/stat` field 22), which
  /// tells a live firer from a later process that reused its pid.
  public var startTime: UInt64
  /// The kernel boot id; a claim from an earlier boot is always abandoned.
  public var bootID: String

  public init(pid: Int32, startTime: UInt64, bootID: String) {
    self.pid = pid
    self.startTime = startTime
    self.bootID = bootID
  }

  /// `pid:starttime:bootid`, as stored in a claim.
  public var description: String { "\(pid):\(startTime):\(bootID)" }

  /// Parses `description` back.
  public init?(_ text: String) {
    let parts = text.split(separator: ":", maxSplits: 2)
    guard parts.count == 3, let pid = Int32(parts[0]), let start = UInt64(parts[1]) else { return nil }
    self.init(pid: pid, startTime: start, bootID: String(parts[2]))
  }
}

/// An occurrence claimed durably by one firer before it is handed to a sink.
public struct Claim: Hashable, Sendable {
  /// The store's row id of the scheduled notification (distinct for a replaced id).
  public var rowID: Int64
  /// 0-based occurrence index.
  public var occurrence: Int
  /// When this occurrence was due.
  public var fireDate: Date
  /// Whether it is being delivered late (more than `Delivery.lateTolerance` past due).
  public var late: Bool
  /// How many earlier occurrences this one stands for (coalesced after downtime).
  public var coalesced: Int
  /// The notification as stored when claimed.
  public var notification: LocalNotification

  public init(
    rowID: Int64, occurrence: Int, fireDate: Date, late: Bool, coalesced: Int = 0,
    notification: LocalNotification
  ) {
    self.rowID = rowID
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.late = late
    self.coalesced = coalesced
    self.notification = notification
  }
}

/// What a firer needs from the store. The SQLite store implements it; every method is one
/// transaction, safe against other processes doing the same at once.
public protocol FiringStore: AnyObject {
  /// The earliest next fire instant over all apps, or nil when nothing is pending.
  func nextFireDate(localZone: TimeZone) throws -> Date?

  /// Atomically claims every occurrence due at `now` (at most `limit`), advancing each
  /// notification to its next future occurrence; occurrences later than `misfireGrace`
  /// are recorded as `missed` instead; claims of dead firers are taken over.
  func claimDue(now: Date, localZone: TimeZone, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int)
    throws -> [Claim]

  /// Records a claimed occurrence as delivered and drops the claim.
  func markDelivered(_ claim: Claim, delivery: Delivery) throws

  /// Records a claimed occurrence as failed with `reason` and drops the claim.
  func markFailed(_ claim: Claim, reason: String, at: Date) throws

  /// Returns unstarted claims to pending, as if they had never been claimed.
  func release(_ claims: [Claim]) throws
}
