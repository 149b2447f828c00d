import Foundation

/// How much history the store keeps: at most `entries` events, none older than `days`
/// days. Pruning runs inside the transactions that write history, once every
/// `pruneInterval` events, so history may exceed the bound by fewer than that many.
public struct HistoryRetention: Hashable, Sendable {
  /// The most events kept.
  public var entries: Int
  /// The oldest event kept, in days before now.
  public var days: Int

  /// 10,000 events and 90 days: months of a busy chat client, a few MB.
  public static let standard = HistoryRetention(entries: 10_000, days: 90)
  /// How often (in events written) history is pruned.
  public static let pruneInterval: Int64 = 64
  /// The bounds a user may set.
  public static let entriesRange = 100...10_000_000
  public static let daysRange = 1...36_525

  /// Creates a retention; `validated()` checks it.
  public init(entries: Int, days: Int) {
    self.entries = entries
    self.days = days
  }

  /// Events at or before this instant are pruned.
  public func cutoff(now: Date) -> Date { now - TimeInterval(days) * 86_400 }

  /// Checks the bounds; errors name the option.
  public func validated() throws(NotifyError) -> HistoryRetention {
    guard Self.entriesRange.contains(entries) else {
      throw NotifyError(
        .invalidData, "a history of \(entries) entries is out of range",
        fix: "keep from \(Self.entriesRange.lowerBound) to \(Self.entriesRange.upperBound) entries")
    }
    guard Self.daysRange.contains(days) else {
      throw NotifyError(
        .invalidData, "a history of \(days) days is out of range",
        fix: "keep from \(Self.daysRange.lowerBound) to \(Self.daysRange.upperBound) days")
    }
    return self
  }

  /// The JSON kept in the store: `{"entries":N,"days":N}`.
  public var jsonValue: JSONValue { .object(["entries": .int(Int64(entries)), "days": .int(Int64(days))]) }

  /// Reads the stored JSON back; nil when it is not one.
  public init?(json: JSONValue) {
    guard case .object(let m) = json, case .int(let entries)? = m["entries"], case .int(let days)? = m["days"]
    else { return nil }
    self.init(entries: Int(entries), days: Int(days))
  }
}

/// What retention has pruned from history so far: how many events, and the newest of them.
public struct HistoryPruning: Hashable, Sendable {
  /// Events pruned in all.
  public var count: Int64
  /// When the newest pruned event happened.
  public var newest: Date?

  public init(count: Int64 = 0, newest: Date? = nil) {
    self.count = count
    self.newest = newest
  }
}
