import Foundation

/// The rules of one time zone, as the tz database gives them: the UTC offset, its
/// abbreviation and whether it is daylight saving time, at any Unix second.
///
/// Built from a TZif file's bytes (RFC 8536) or from a POSIX TZ string; no ICU, no
/// Foundation `TimeZone`, no file access, so the time rules stay pure and tests hand
/// zones in as literal data. Reading the files is the zone database adapter's job.
///
/// ```swift
/// let berlin = try Zone(identifier: "Europe/Berlin", tzif: bytes)
/// berlin.localTimeType(at: 1_774_746_000).utcOffset  // 7200 (CEST)
/// ```
public struct Zone: Sendable, Hashable {
  /// The name the zone is known by: an IANA name, a POSIX TZ string, or `localtime`.
  public let identifier: String
  private let rules: Rules

  private enum Rules: Sendable, Hashable {
    case table(TransitionTable)
    case rule(POSIXTimeZone)
  }

  /// UTC under the name `identifier`.
  public static let utc = Zone(identifier: "UTC", rule: .fixed(offset: 0, abbreviation: "UTC"))

  /// A zone read from the bytes of a TZif file (versions 1 to 4).
  public init(identifier: String, tzif bytes: [UInt8]) throws(ZoneError) {
    self.identifier = identifier
    do {
      rules = .table(try TransitionTable(tzif: bytes))
    } catch {
      throw .malformed(name: identifier, reason: ZoneDataError.reason(error))
    }
  }

  /// A zone given by a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3`.
  public init(identifier: String? = nil, posix text: String) throws(ZoneError) {
    self.identifier = identifier ?? text
    do {
      rules = .rule(try POSIXTimeZone(text))
    } catch {
      throw .invalidRule(text: text, reason: ZoneDataError.reason(error))
    }
  }

  /// A zone that follows `rule` at all times.
  public init(identifier: String, rule: POSIXTimeZone) {
    self.identifier = identifier
    rules = .rule(rule)
  }

  /// A zone given by its transitions (ascending, at most 255 distinct local time types):
  /// `initial` holds before the first, each transition's type from its instant on, and
  /// `footer` past the last (the last type when nil). For zones that are neither a tz
  /// database file nor a POSIX string, such as an iCalendar file's own VTIMEZONE.
  package init(
    identifier: String, initial: LocalTimeType, transitions: [(at: Int64, type: LocalTimeType)],
    footer: POSIXTimeZone?
  ) {
    var types = [initial]
    var indices: [UInt8] = []
    var times: [Int64] = []
    for (at, type) in transitions where times.last.map({ at > $0 }) ?? true {
      let index =
        types.firstIndex(of: type)
        ?? {
          types.append(type); return types.count - 1
        }()
      guard index < 256 else { break }
      times.append(at)
      indices.append(UInt8(index))
    }
    self.identifier = identifier
    rules = .table(TransitionTable(times: times, typeIndices: indices, types: types, footer: footer))
  }

  /// The same rules under another name.
  public func named(_ identifier: String) -> Zone {
    Zone(identifier: identifier, rules: rules)
  }

  private init(identifier: String, rules: Rules) {
    self.identifier = identifier
    self.rules = rules
  }

  /// The offset, abbreviation and DST flag in force at Unix second `unixSeconds`.
  public func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
    switch rules {
    case .table(let table): table.localTimeType(at: unixSeconds)
    case .rule(let rule): rule.localTimeType(at: unixSeconds)
    }
  }

  /// The first instant after Unix second `unixSeconds` at which the zone changes its local
  /// time type, or nil when it never does again.
  public func nextTransition(after unixSeconds: Int64) -> Int64? {
    switch rules {
    case .table(let table): table.nextTransition(after: unixSeconds)
    case .rule(let rule): rule.nextTransition(after: unixSeconds)
    }
  }

  /// `nextTransition(after:)` for dates.
  public func nextTransition(after date: Date) -> Date? {
    nextTransition(after: Self.unixSeconds(date)).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// The UTC offset in seconds (east positive) at Unix second `unixSeconds`.
  public func utcOffset(at unixSeconds: Int64) -> Int64 {
    Int64(localTimeType(at: unixSeconds).utcOffset)
  }

  /// The UTC offset in seconds at `date` (its whole second, rounded down).
  public func secondsFromGMT(for date: Date) -> Int {
    localTimeType(at: Self.unixSeconds(date)).utcOffset
  }

  /// The abbreviation in force at `date`, such as `CET` or `+0530`.
  public func abbreviation(for date: Date) -> String {
    localTimeType(at: Self.unixSeconds(date)).abbreviation
  }

  /// Whole Unix seconds of `date`, rounded down, clamped far from overflow.
  static func unixSeconds(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite else { return seconds > 0 ? Int64.max / 4 : Int64.min / 4 }
    return Int64(min(max(seconds, -9.0e15), 9.0e15))
  }
}

/// What a zone says about one instant (RFC 8536's "local time type").
public struct LocalTimeType: Sendable, Hashable {
  /// Seconds east of UTC.
  public var utcOffset: Int
  /// Whether this is daylight saving time.
  public var isDaylightSavingTime: Bool
  /// The designation, such as `CEST`.
  public var abbreviation: String

  /// Creates a local time type.
  public init(utcOffset: Int, isDaylightSavingTime: Bool, abbreviation: String) {
    self.utcOffset = utcOffset
    self.isDaylightSavingTime = isDaylightSavingTime
    self.abbreviation = abbreviation
  }
}
