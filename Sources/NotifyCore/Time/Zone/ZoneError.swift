/// Why a zone could not be had: the core's part (malformed data, a bad POSIX TZ string)
/// and the database's (a name that is not in it).
public enum ZoneError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The zone file's bytes are not valid TZif.
  case malformed(name: String, reason: String)
  /// A POSIX TZ string that does not parse.
  case invalidRule(text: String, reason: String)
  /// No zone of that name in `folder`.
  case unknown(name: String, folder: String)
  /// A name that may not be looked up (`..`, absolute, empty, too long).
  case invalidName(name: String, reason: String)

  public var description: String {
    switch self {
    case .malformed(let name, let reason):
      "time zone '\(Escaper.visible(name, limit: 80))' is not a valid TZif file: \(reason)"
    case .invalidRule(let text, let reason):
      "'\(Escaper.visible(text, limit: 80))' is not a POSIX TZ string: \(reason)"
    case .unknown(let name, let folder):
      "unknown time zone '\(Escaper.visible(name, limit: 80))': no such zone file in \(Escaper.visible(folder, limit: 200))"
    case .invalidName(let name, let reason):
      "'\(Escaper.visible(name, limit: 80))' is not a time zone name: \(reason)"
    }
  }

  /// What to do about it.
  public var fix: String {
    switch self {
    case .malformed:
      "reinstall the zone data (apt-get install --reinstall tzdata), or compile the zone again with zic"
    case .invalidRule:
      "write it as std offset [dst [offset] [,start[/time],end[/time]]], e.g. CET-1CEST,M3.5.0,M10.5.0/3"
    case .unknown(_, let folder):
      "use an IANA name such as Europe/Berlin from \(Escaper.visible(folder, limit: 200)) or 'local'; install tzdata, or set TZDIR to the folder your zones were compiled into"
    case .invalidName:
      "use a name relative to the zone folder, such as Europe/Berlin"
    }
  }
}
