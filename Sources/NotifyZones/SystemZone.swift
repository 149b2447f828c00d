import Glibc
import NotifyCore

/// The system time zone, read as glibc reads it, afresh on every call (the user may move).
///
/// `TZ`, when set: an IANA name or `:name` from the database, an absolute path (with or
/// without `:`) to a TZif file, or a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3`;
/// set but empty, or naming nothing readable, it is UTC, as in glibc. Without `TZ`,
/// `/etc/localtime`: its link target after `zoneinfo/` names the zone, else it is called
/// `localtime`. Without that file, UTC.
public enum SystemZone {
  /// The system zone now, named zones read from `database`.
  public static func read(
    database: TZDatabase = .shared, environment: String?? = nil, localtime: String = "/etc/localtime"
  ) -> Zone {
    let tz: String? = environment ?? getenv("TZ").map { String(cString: $0) }
    if let tz { return fromTZ(tz, database: database) }
    guard let bytes = ZoneFile.read(localtime) else { return .utc }
    let name = ZoneFile.linkTarget(localtime).flatMap(zoneName(fromLinkTarget:)) ?? "localtime"
    if let zone = try? Zone(identifier: name, tzif: bytes) { return zone }
    return .utc
  }

  /// What a `TZ` value stands for.
  static func fromTZ(_ value: String, database: TZDatabase) -> Zone {
    if value.isEmpty { return .utc }
    let isFileName = value.hasPrefix(":")
    let name = isFileName ? String(value.dropFirst()) : value
    if name.hasPrefix("/") {
      guard let bytes = ZoneFile.read(name) else { return .utc }
      let identifier =
        name.hasPrefix(database.folder + "/") ? String(name.dropFirst(database.folder.count + 1)) : name
      return (try? Zone(identifier: identifier, tzif: bytes)) ?? .utc
    }
    if let zone = try? database.zone(named: name) { return zone }
    if !isFileName, let zone = try? Zone(posix: name) { return zone }
    return .utc
  }

  /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/...`.
  static func zoneName(fromLinkTarget target: String) -> String? {
    guard let range = target.range(of: "zoneinfo/") else { return nil }
    let name = String(target[range.upperBound...])
    return name.isEmpty ? nil : name
  }
}
