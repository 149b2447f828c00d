import Foundation

/// What the store holds ahead of a firer, read in one transaction: the next
/// instant anything of its apps is due and how many fall due at it (abandoned claims,
/// running apps' deferrals and live firers' lease expiries folded in as instants), and the
/// apps with occurrences held for quiet hours that no live firer is releasing.
///
/// The firer keeps the last one it was given while the store has not changed since
/// (`FiringStore.isUnchanged(since:)`), so a wake-up on its own timer asks the store
/// nothing before it claims or hands over.
public struct FiringOutlook: Hashable, Sendable {
  /// The earliest instant something is due, and how many are due at it; nil when nothing is
  /// pending.
  public var next: FiringStateMachine.NextDue?
  /// The apps with held occurrences no live firer is releasing.
  public var heldApps: [String]
  /// The store's state this was read at, when the store can tell (`StoreVersion`).
  public var version: StoreVersion?
  /// How many notifications of the firer's apps are pending, when the store was asked to
  /// count them (the daemon's status line reads it here instead of asking the store again).
  public var pending: Int?
  /// The earliest instant a notification that wakes the machine is due (`LocalNotification
  /// .wake`, of apps the user lets wake it), with the wake lead in force; nil when none is
  /// pending. The firing loop keeps its alarm timer armed for it (`WakePlanner`).
  public var wake: WakePlanner.Due?

  /// Creates an outlook.
  public init(
    next: FiringStateMachine.NextDue?, heldApps: [String] = [], version: StoreVersion? = nil,
    pending: Int? = nil, wake: WakePlanner.Due? = nil
  ) {
    self.wake = wake
    self.next = next
    self.heldApps = heldApps
    self.version = version
    self.pending = pending
  }
}

/// An opaque mark of a store's committed state: equal marks, nothing was committed in
/// between (by anyone). Taken without a transaction (the SQLite store reads its WAL index's
/// header), so asking costs no store transaction.
public struct StoreVersion: Hashable, Sendable {
  /// The mark's bytes.
  public var bytes: [UInt8]
  /// For the mark a firer's own commit left: the mark as that transaction found the store,
  /// before its commit (`carried(from:)`); not part of the mark's identity.
  public var since: [UInt8]?

  /// Wraps `bytes`.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public static func == (a: StoreVersion, b: StoreVersion) -> Bool { a.bytes == b.bytes }
  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

  /// This mark, when it was left by one commit of the firer's own made on a store still at
  /// `earlier` (nobody committed between `earlier` and that commit): what the firer knew
  /// at `earlier` still holds now, but for what its own commit changed. Nil otherwise.
  public func carried(from earlier: StoreVersion) -> StoreVersion? {
    since == earlier.bytes ? self : nil
  }

  /// The header's change counter (`iChange`, bytes 8-11 of the first copy, native order).
  public var changeCounter: UInt32 { word(at: 8) }
  /// The WAL's salts (bytes 32-39), new at every restart of the WAL.
  public var salts: [UInt32] { [word(at: 32), word(at: 36)] }

  /// Whether this header can follow `before` (read inside a write transaction) by that
  /// transaction's commit alone: the change counter moved by none (nothing written) or one,
  /// or by two with new salts (the commit restarted the WAL after a checkpoint). Any other
  /// step means another commit came in between.
  public func followsByOneCommit(_ before: StoreVersion) -> Bool {
    switch changeCounter &- before.changeCounter {
    case 0, 1: true
    case 2: salts != before.salts
    default: false
    }
  }

  private func word(at offset: Int) -> UInt32 {
    guard bytes.count >= offset + 4 else { return 0 }
    return bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
  }
}

/// What one claim transaction gives a firer: the claims, what it needs to hand them over
/// (the user's settings for their apps and the quiet hours, read in the same transaction),
/// and the outlook as the claim left the store.
public struct ClaimBatch: Sendable {
  /// The occurrences now this firer's, soonest first.
  public var claims: [Claim]
  /// The settings in force for each app of `claims`; nil: not read, ask `settingsInForce`.
  public var settings: [String: NotificationSettings]?
  /// The quiet hours; nil: not read, ask `quietHours()`.
  public var quiet: QuietHours?
  /// How a click can reach each app of `claims` (`ClickReachability`); nil: not read.
  public var reach: [String: AppReach]?
  /// The categories each app of `claims` has registered (`CategoryResolution`); an app
  /// missing here (or nil): not read, ask `categories(app:)`.
  public var categories: [String: [NotificationCategory]]?
  /// The outlook after the claim; nil: not read.
  public var outlook: FiringOutlook?
  /// The store's state right after the claim committed (`StoreVersion`).
  public var version: StoreVersion?
  /// The `missed` events the claim recorded (past a notification's `expireLate` or the
  /// firer's misfire grace), for the catch-up's summary (`MissedSummary`).
  public var missed: [HistoryEvent] = []

  /// Creates a batch.
  public init(
    claims: [Claim], settings: [String: NotificationSettings]? = nil, quiet: QuietHours? = nil,
    reach: [String: AppReach]? = nil, categories: [String: [NotificationCategory]]? = nil,
    outlook: FiringOutlook? = nil, version: StoreVersion? = nil
  ) {
    self.claims = claims
    self.settings = settings
    self.quiet = quiet
    self.reach = reach
    self.categories = categories
    self.outlook = outlook
    self.version = version
  }
}
