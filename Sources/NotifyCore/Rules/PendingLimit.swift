import Foundation

/// iOS's limit of 64 pending notifications per app (SPEC.md §3): keep the soonest,
/// discard the rest. Pure: the store hands in what is pending and gets back what to drop.
public enum PendingLimit {
  /// The number of pending notifications an app may have.
  public static let maximum = 64

  /// One pending notification as the limit sees it.
  public struct Entry: Hashable, Sendable {
    /// The notification id.
    public var id: String
    /// Its next fire instant.
    public var nextFire: Date
    /// Scheduling order: lower was scheduled earlier and wins ties.
    public var sequence: Int64

    public init(id: String, nextFire: Date, sequence: Int64) {
      self.id = id
      self.nextFire = nextFire
      self.sequence = sequence
    }
  }

  /// The entries to discard so that at most `maximum` remain: those with the latest next
  /// fire instant; on equal instants the one scheduled later goes first. Returned
  /// soonest first.
  public static func overflow(of entries: [Entry], maximum: Int = maximum) -> [Entry] {
    guard entries.count > maximum else { return [] }
    let ordered = entries.sorted { ($0.nextFire, $0.sequence) < ($1.nextFire, $1.sequence) }
    return Array(ordered[maximum...])
  }
}
