import NotifyCore
import Synchronization

/// The zones one calendar file's times are read in: a TZID of the tz database is the
/// system's zone of that name (the user's tzdata is newer than any file's copy of it); a
/// TZID the database does not know is the file's own VTIMEZONE of that name
/// (`VTimeZoneBuilder`), or, for the forms some programs write
/// (`/mozilla.org/20070129_1/Europe/Berlin`, `/freeassociation.sourceforge.net/Europe/Berlin`),
/// the database zone the name ends with. Floating times and dates are read in the system
/// zone. Anything else is read as floating, with a warning.
///
/// A `ZoneDatabase` itself, so that the recurrence engine resolves a rule's TZID through
/// the same lookup (`Schedule` with `.named(TZID)`).
public final class CalendarZones: ZoneDatabase, Sendable {
  /// The system zone and the tz database.
  public let system: Zones
  private let timeZones: [String: CalendarComponent]
  private let built = Mutex<[String: Zone?]>([:])
  private let warningStore = Mutex<[CalendarWarning]>([])
  /// Warnings about zones that could not be read, once per TZID.
  public var warnings: [CalendarWarning] { warningStore.withLock { $0 } }

  /// The zones for a file whose VTIMEZONEs are `timeZones` (by TZID), with `system` for
  /// the system zone and the tz database.
  public init(system: Zones, timeZones: [String: CalendarComponent] = [:]) {
    self.system = system
    self.timeZones = timeZones
  }

  /// The zone a value with `reference` is read in, or nil for floating (the system zone's
  /// wall clock: `ZoneRule.local`).
  public func zone(for reference: CalendarDateTime.Reference) -> Zone {
    switch reference {
    case .utc: .utc
    case .floating: system.local
    case .zone(let name): (try? zone(named: name)) ?? system.local
    }
  }

  /// The zone rule the recurrence engine resolves `reference` with.
  public func zoneRule(for reference: CalendarDateTime.Reference) -> ZoneRule {
    switch reference {
    case .utc: .named("UTC")
    case .floating: .local
    case .zone(let name): (try? zone(named: name)) == nil ? .local : .named(name)
    }
  }

  /// The zones as the recurrence engine takes them: the system zone, and this lookup.
  public var engineZones: Zones { Zones(local: system.local, database: self) }

  public func zone(named name: String) throws(ZoneError) -> Zone {
    if name == "UTC" { return .utc }
    if let cached = built.withLock({ $0[name] }) {
      guard let cached else { throw .unknown(name: name, folder: "the calendar file") }
      return cached
    }
    var found: Zone?
    if Self.isDatabaseName(name), let zone = try? system.database.zone(named: name) {
      found = zone.named(name)
    } else if let component = timeZones[name],
      let zone = VTimeZoneBuilder.zone(tzid: name, component: component)
    {
      found = zone
    } else if let alias = Self.databaseSuffix(of: name), let zone = try? system.database.zone(named: alias) {
      found = zone.named(name)
    }
    built.withLock { $0[name] = .some(found) }
    guard let found else {
      warningStore.withLock {
        $0.append(
          CalendarWarning(
            line: timeZones[name]?.line ?? 0, property: "TZID=\(name)",
            "no such zone in the tz database and no readable VTIMEZONE of that name: its times are read in the system zone"
          ))
      }
      throw .unknown(name: name, folder: "the calendar file")
    }
    return found
  }

  /// Whether `name` could be a file of the tz database (no empty, `.` or `..` parts, not absolute).
  static func isDatabaseName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("/") && name.utf8.count <= 255
      && !name.split(separator: "/", omittingEmptySubsequences: false).contains {
        $0.isEmpty || $0 == "." || $0 == ".."
      }
      && name.allSatisfy { $0.isASCII && !$0.isWhitespace }
  }

  /// `Europe/Berlin` of `/mozilla.org/20070129_1/Europe/Berlin`: the last two or three
  /// parts of a path-like TZID, when they could name a database zone.
  static func databaseSuffix(of name: String) -> String? {
    guard name.hasPrefix("/") else { return nil }
    let parts = name.split(separator: "/")
    for count in [3, 2] where parts.count > count {
      let candidate = parts.suffix(count).joined(separator: "/")
      if isDatabaseName(candidate), candidate.first?.isUppercase == true { return candidate }
    }
    return nil
  }
}
