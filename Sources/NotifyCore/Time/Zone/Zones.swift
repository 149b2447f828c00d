/// The zones the time rules need at one moment: the system zone that `local`
/// notifications follow right now, and the database named zones are read from.
public struct Zones: Sendable {
  /// The system zone right now.
  public var local: Zone
  /// Where `--time-zone` names are looked up.
  public var database: any ZoneDatabase

  /// The zones `local` and `database`.
  public init(local: Zone, database: any ZoneDatabase = ZoneTable()) {
    self.local = local
    self.database = database
  }

  /// UTC as the system zone, no named zones besides UTC.
  public static let utc = Zones(local: .utc)

  /// The concrete zone of `rule`. An unknown name (a zone removed from tzdata since
  /// scheduling, or a broken file) falls back to UTC, so a stored notification still fires.
  public func resolve(_ rule: ZoneRule) -> Zone {
    switch rule {
    case .local: local
    case .named(let name): (try? database.zone(named: name)) ?? .utc
    }
  }
}
