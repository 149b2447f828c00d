/// Instants `from..<until` over which a zone keeps one UTC offset, so that a rule's
/// wall-clock times inside it resolve by subtraction instead of zone lookups: the walk of a
/// rule resolves every occurrence, and a zone changes its offset twice a year at most.
struct SteadyOffset: Sendable {
  let from: Int64
  let until: Int64
  let offset: Int64

  /// The stretch that starts at `instant`: to the zone's next transition, or for ever.
  init(zone: Zone, at instant: Int64) {
    from = instant
    until = zone.nextTransition(after: instant) ?? .max
    offset = zone.utcOffset(at: instant)
  }

  /// The instant of `wall` (local seconds) when the stretch decides it: what
  /// `ZoneResolver.unixSeconds` computes from offsets probed a day either side of `wall`
  /// and at the instant itself, all of which lie inside the stretch. A time in a gap or a
  /// repeated hour is never decided here (its probes straddle a transition).
  func instant(of wall: Int64) -> Int64? {
    let day = CivilCalendar.secondsPerDay
    let instant = wall - offset
    guard wall - day >= from, wall + day < until, instant >= from, instant < until else { return nil }
    return instant
  }
}
