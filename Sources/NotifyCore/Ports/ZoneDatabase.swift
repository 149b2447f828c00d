/// Where named zones come from: the tz database, read by an adapter (`TZDatabase` in
/// NotifyZones reads `$TZDIR` or `/usr/share/zoneinfo`), or a table of literal zones
/// for tests.
public protocol ZoneDatabase: Sendable {
  /// The zone called `name` (an IANA name such as `Europe/Berlin`).
  func zone(named name: String) throws(ZoneError) -> Zone
}

/// Zones given as values, for tests and for programs that bring their own rules.
public struct ZoneTable: ZoneDatabase {
  private let zones: [String: Zone]
  /// What the "unknown zone" error names as the folder searched.
  private let folder: String

  /// A database holding `zones` (by identifier) and UTC.
  public init(_ zones: [Zone] = [], folder: String = "(zones given in memory)") {
    var byName = ["UTC": Zone.utc]
    for zone in zones { byName[zone.identifier] = zone }
    self.zones = byName
    self.folder = folder
  }

  public func zone(named name: String) throws(ZoneError) -> Zone {
    guard let zone = zones[name] else { throw .unknown(name: name, folder: folder) }
    return zone
  }
}
