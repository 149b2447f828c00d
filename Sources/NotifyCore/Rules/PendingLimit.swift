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

extension PendingLimit {
  /// One request of a batch as the limit sees it before it is stored.
  public struct Arrival: Hashable, Sendable {
    /// The notification id.
    public var id: String
    /// Its first fire instant.
    public var firstFire: Date

    public init(id: String, firstFire: Date) {
      self.id = id
      self.firstFire = firstFire
    }
  }

  /// The positions in `batch` of the requests that storing it over `pending` (one app's)
  /// keeps, as the store decides it: each request replaces a pending notification with its
  /// id and an earlier request of the batch with its id, and comes after everything stored
  /// before it in scheduling order; the limit then discards the latest. Pure: the D-Bus
  /// service asks it which requests to copy files for before it copies any.
  public static func kept(arriving batch: [Arrival], over pending: [Entry], maximum: Int = maximum) -> Set<
    Int
  > {
    let replaced = Set(batch.map(\.id))
    var entries = pending.filter { !replaced.contains($0.id) }
    let base = (pending.map(\.sequence).max() ?? 0) + 1
    var last: [String: Int] = [:]
    for (index, arrival) in batch.enumerated() { last[arrival.id] = index }
    for (index, arrival) in batch.enumerated() where last[arrival.id] == index {
      entries.append(Entry(id: arrival.id, nextFire: arrival.firstFire, sequence: base + Int64(index)))
    }
    let dropped = Set(overflow(of: entries, maximum: maximum).map(\.sequence))
    return Set(
      batch.indices.filter { index in last[batch[index].id] == index && !dropped.contains(base + Int64(index))
      })
  }
}
