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
  /// The bubble the desktop shows for the notification, as the claim's transaction read it
  /// (the last delivery's `DeliveryReceipt.bubble`): what its hand-off replaces.
  public var bubble: ServerBubbleID?
  /// The bubble the notification's thread shows, as the claim's transaction read it (nil:
  /// none on screen, or no thread): what its hand-off replaces instead (`ThreadSummary`).
  public var thread: ThreadBubble?

  public init(
    rowID: Int64, occurrence: Int, fireDate: Date, late: Bool, coalesced: Int = 0,
    notification: LocalNotification, bubble: ServerBubbleID? = nil, thread: ThreadBubble? = nil
  ) {
    self.thread = thread
    self.rowID = rowID
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.late = late
    self.coalesced = coalesced
    self.notification = notification
    self.bubble = bubble
  }
}

/// An occurrence handed to the sink, to be recorded as delivered.
public struct HandOff: Hashable, Sendable {
  /// The claim it was handed over under.
  public var claim: Claim
  /// What the sink was given.
  public var delivery: Delivery
  /// What the sink answered (its bubble is recorded in the same write as the delivery).
  public var receipt: DeliveryReceipt

  /// Creates a hand-off record.
  public init(claim: Claim, delivery: Delivery, receipt: DeliveryReceipt = DeliveryReceipt()) {
    self.claim = claim
    self.delivery = delivery
    self.receipt = receipt
  }
}

/// What a firer needs from the store. The SQLite store implements it; every method is one
/// transaction, safe against other processes doing the same at once. The store carries
/// out plans (`ClaimPlanner`, `ReleasePlanner`); it holds no firing policy of its own.
public protocol FiringStore: AnyObject {
  /// The earliest next fire instant over all apps (or only `app`'s), abandoned claims
  /// included, or nil when nothing is pending. `local` rows computed for another zone
  /// than `zones.local` are computed again first.
  func nextFireDate(zones: Zones, app: String?) throws -> Date?

  /// Computes every pending wall-clock row's next fire instant again in `zones`: after
  /// the zone data changed (a tzdata update, a zone file replaced), which the zone names
  /// alone do not show. Returns how many rows moved.
  @discardableResult
  func recomputeWallClockRows(zones: Zones) throws -> Int

  /// How many pending notifications (only `app`'s when given) fall due at exactly
  /// `instant`: how large a burst is coming, so that it is claimed early enough.
  func countDue(at instant: Date, app: String?) throws -> Int

  /// Atomically claims every occurrence due at `now` (at most `limit`; only `app`'s when
  /// given), advancing each notification to its next future occurrence; occurrences later
  /// than `misfireGrace` are recorded as `missed` instead; claims of dead firers are taken over.
  func claimDue(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String?
  ) throws -> [Claim]

  /// `owner` is about to confirm `claims` (`keepClaim`) and hand them over (one, or a burst
  /// shown with one call): until `finishHandOff`, a cancel leaves them to `owner`, and a
  /// cancel of one already under way is waited for (it then wins: the confirmation fails).
  /// Without it a cancel landing between the confirmation and the note would delete an
  /// occurrence about to be shown. Throws when the journal cannot be opened (the firer goes
  /// on: the note records at once instead).
  func beginHandOff(_ claims: [Claim], owner: FirerIdentity) throws

  /// `beginHandOff` for held occurrences about to be confirmed (`keepHeld`) and released.
  func beginRelease(_ held: [HeldNotification], owner: FirerIdentity) throws

  /// The hand-off `beginHandOff` or `beginRelease` began is noted, or did not happen.
  func finishHandOff(owner: FirerIdentity)

  /// Notes durably, at once and without a transaction (one `write(2)`), that `owner` handed
  /// these claimed occurrences to its sink: should `owner` die before `markDelivered`, the
  /// next firer records them as delivered instead of handing them over again.
  func noteHandedOver(_ handOffs: [HandOff], owner: FirerIdentity) throws

  /// Confirms, just before handing `claim` over, that `owner` still holds it (another firer
  /// may have taken it over past `ClaimLease.duration`, or the user cancelled it), renewing
  /// it when it is older than `ClaimLease.renewAfter`. False: skip it.
  func keepClaim(_ claim: Claim, owner: FirerIdentity, now: Date) throws -> Bool

  /// Records handed-over occurrences as delivered and drops their claims, in one transaction.
  func markDelivered(_ handOffs: [HandOff]) throws

  /// `owner` stops firing: its hand-off notes, all recorded, can go.
  func endHandOffs(owner: FirerIdentity)

  /// The bubble `app`'s thread `thread` shows now, nil when none is on screen as far as the
  /// store knows (`ThreadBubble`, `likelyClosed` as of `now`): what a notification of the
  /// thread shown at once replaces.
  func threadBubble(app: String, thread: String, now: Date) throws -> ThreadBubble?

  /// Records a notification shown at once (`present`, not claimed) as `presented`.
  func recordPresented(_ delivery: Delivery, bubble: ServerBubbleID?) throws

  /// Records a notification presented during quiet hours as held, to be shown when they end.
  func recordHeld(_ delivery: Delivery) throws

  /// Records a claimed occurrence as failed with `reason` and drops the claim.
  func markFailed(_ claim: Claim, reason: String, at: Date) throws

  /// Returns unstarted claims to pending, as if they had never been claimed.
  func release(_ claims: [Claim]) throws

  /// What the user allows `app` (`notify settings`), read before its claims are handed over.
  func settingsInForce(app: String) throws -> NotificationSettings

  /// The user's quiet hours.
  func quietHours() throws -> QuietHours

  /// The categories `app` has registered (`NotificationCategory`), read before its
  /// notifications are handed over.
  func categories(app: String) throws -> [NotificationCategory]

  /// The apps (of `app`, all when nil) with occurrences held for quiet hours that no live
  /// firer is releasing.
  func heldApps(app: String?) throws -> [String]

  /// Claims the held occurrences of `apps` for `owner` to show. Those a dead releaser noted
  /// as shown (`noteReleased`) are recorded as released instead, not returned.
  func claimHeld(apps: [String], owner: FirerIdentity, now: Date) throws -> [HeldNotification]

  /// Of `held`, those still held and claimed by `owner`, asked just before each hand-off of a
  /// release: the app may have cancelled some meanwhile.
  func keepHeld(_ held: [HeldNotification], owner: FirerIdentity) throws -> [HeldNotification]

  /// Notes durably, at once and without a transaction, that `owner` showed these held
  /// occurrences at `date` (in the summary `summaryID`, if one): should `owner` die before
  /// `markReleased`, the firer that takes its held rows over records them instead of
  /// showing them again.
  func noteReleased(_ held: [HeldNotification], at date: Date, summaryID: String?, owner: FirerIdentity)
    throws

  /// Gives back held occurrences the sink did not take.
  func unclaimHeld(_ held: [HeldNotification]) throws

  /// Records held occurrences as shown (in the summary `summaryID`, if one) and forgets them,
  /// with the bubble the sink showed them in (`DeliveryReceipt.bubble`), in one write.
  func markReleased(_ held: [HeldNotification], at date: Date, summaryID: String?, bubble: ServerBubbleID?)
    throws

  /// True when another connection (another process) committed a change since the last
  /// call: a firer's own commits also touch the store's files, and must not wake it.
  func changedByOthers() throws -> Bool

  /// True while another process is in the middle of a write to the store (it holds the
  /// WAL's write lock): what it writes is not readable yet, so a change event now is
  /// looked at again once it is done, without `changedByOthers` taking the change.
  func othersAreWriting() -> Bool

  /// What a wake-up needs to know of the store, in one read transaction (`FiringOutlook`):
  /// the next instant of `app`'s (or every app's) and how many fall due at it, and the
  /// apps with held occurrences to look at.
  func outlook(zones: Zones, app: String?) throws -> FiringOutlook

  /// `claimDue`, with what the hand-off needs (settings, quiet hours) and the outlook after
  /// the claim, read in the claim's transaction.
  func claimBatch(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String?
  ) throws -> ClaimBatch

  /// `markDelivered`, returning the outlook after the record, read in its transaction (nil:
  /// not read).
  func markDelivered(_ handOffs: [HandOff], zones: Zones, app: String?) throws -> FiringOutlook?

  /// Whether nothing at all was committed to the store since `version` was taken; false
  /// when the store cannot tell. Asks no transaction.
  func isUnchanged(since version: StoreVersion) -> Bool
}

/// The firer's one-transaction calls, made of the finer ones for a store that has no
/// better way (a test's stand-in).
extension FiringStore {
  /// A store that cannot tell says no one is: every change event is then taken at once.
  public func othersAreWriting() -> Bool { false }

  public func outlook(zones: Zones, app: String?) throws -> FiringOutlook {
    let next = try nextFireDate(zones: zones, app: app).map { instant in
      FiringStateMachine.NextDue(instant, count: try countDue(at: instant, app: app))
    }
    return FiringOutlook(next: next, heldApps: try heldApps(app: app))
  }

  public func claimBatch(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String?
  ) throws -> ClaimBatch {
    ClaimBatch(
      claims: try claimDue(
        now: now, zones: zones, owner: owner, misfireGrace: misfireGrace, limit: limit, app: app))
  }

  public func markDelivered(_ handOffs: [HandOff], zones: Zones, app: String?) throws -> FiringOutlook? {
    try markDelivered(handOffs)
    return nil
  }

  public func isUnchanged(since version: StoreVersion) -> Bool { false }

  public func threadBubble(app: String, thread: String, now: Date) throws -> ThreadBubble? { nil }

  /// A store that keeps no categories: every category named is unknown.
  public func categories(app: String) throws -> [NotificationCategory] { [] }

  public func beginHandOff(_ claims: [Claim], owner: FirerIdentity) throws {}

  public func beginRelease(_ held: [HeldNotification], owner: FirerIdentity) throws {}

  public func finishHandOff(owner: FirerIdentity) {}
}
