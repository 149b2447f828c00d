import Foundation

/// Parses the command line's time syntax (SPEC.md §2).
public enum TimeParser {
  /// Parses `--at`. With an RFC 3339 offset or `Z` the result is `.instant` and a
  /// `timeZone` is a usage error; otherwise it is `.wallClock` in `timeZone` (an IANA
  /// name, validated) or `.local`. `HH:MM[:SS]` means the next such time, today or
  /// tomorrow, in that zone, after `now`.
  ///
  /// Accepted, with no surrounding whitespace: `2026-11-22T09:00:00+01:00`, `...Z`, with
  /// an optional fraction (`09:00:00.250Z`); `2026-11-22T09:00[:SS]` (a space or `t` may
  /// replace `T`); `09:00[:SS]`. A `timeZone` of `local` (or nil) gives `.local`.
  /// `HH:MM` is strictly after `now`: at 09:00 sharp, `09:00` is tomorrow's. The result
  /// carries the full date as written, not as resolved (02:30 stays 02:30 on a DST day).
  /// Bad text or an unknown zone is `.invalidData`; a zone with an offset is `.usage`.
  public static func fireDate(_ text: String, timeZone: String?, now: Date, zones: Zones)
    throws(NotifyError) -> FireDate
  {
    let parsed = try TimeText(text, option: .fireDate)
    if let instant = parsed.instant {
      if let timeZone {
        throw NotifyError(
          .usage,
          "\(term: .timeZone) '\(Escaper.visible(timeZone, limit: 40))' cannot be combined with \(term: .fireDate) '\(Escaper.visible(text, limit: 40))', which already has an offset",
          fix:
            "drop \(term: .timeZone), or drop the offset from \(term: .fireDate) to mean a wall-clock time in that zone"
        )
      }
      return .instant(instant)
    }
    let rule = try zoneRule(timeZone, in: zones.database)
    let zone = rule.resolve(zones: zones)
    return .wallClock(wallClock(of: parsed, in: zone, after: now), rule)
  }

  /// Parses an instant for `--until`: RFC 3339, or wall-clock resolved in `zone`.
  ///
  /// Same syntax as `fireDate(_:timeZone:now:zones:)`; `HH:MM[:SS]` is the next such
  /// time after `now` in `zone`, and DST gaps and repeated hours resolve as for fire dates.
  public static func instant(_ text: String, zone: Zone, now: Date) throws(NotifyError) -> Date {
    let parsed = try TimeText(text, option: .until)
    if let instant = parsed.instant { return instant }
    return ZoneResolver.instant(for: wallClock(of: parsed, in: zone, after: now), in: zone)
  }

  /// Parses `--time-zone`: nil or `local` is `.local`, otherwise an IANA zone name that
  /// must exist in `database` (the system's tz database); it is stored under the name given.
  public static func zoneRule(_ name: String?, in database: any ZoneDatabase) throws(NotifyError) -> ZoneRule
  {
    guard let name, name != "local" else { return .local }
    do {
      _ = try database.zone(named: name)
    } catch {
      throw NotifyError(.invalidData, error.description, fix: error.fix)
    }
    return .named(name)
  }

  /// The wall-clock time `parsed` stands for: its own date, or for a bare time of day the
  /// first such time strictly after `now` in `zone` (today or tomorrow).
  private static func wallClock(of parsed: TimeText, in zone: Zone, after now: Date) -> WallClock {
    if let wall = parsed.wallClock { return wall }
    let today = ZoneResolver.wallClock(for: now, in: zone)
    let candidate = WallClock(
      year: today.year, month: today.month, day: today.day, hour: parsed.hour,
      minute: parsed.minute, second: parsed.second)
    guard ZoneResolver.instant(for: candidate, in: zone) <= now else { return candidate }
    return candidate.addingDays(1)
  }
}
