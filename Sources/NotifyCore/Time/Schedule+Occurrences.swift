import Foundation

extension Schedule {
  /// The zone a `local` wall-clock schedule's next instant is computed in right now
  /// (`zones.local`'s name); nil for schedules that do not follow the system zone.
  public func resolvedZone(zones: Zones) -> String? {
    if case .wallClock(_, .local) = fireDate { return zones.local.identifier }
    return nil
  }

  /// The instant of occurrence `index` (0-based; 0 is the anchor), or nil when the
  /// schedule has no such occurrence (not repeating, past `repeatCount` or `until`).
  /// `zones.local` is what the `local` zone stands for now.
  ///
  /// `minute` and `hour` add elapsed time to the anchor's instant; `day`, `week`, `month`
  /// and `year` add calendar units to the anchor's wall-clock components in the
  /// notification's zone (UTC for absolute anchors), clamp a missing day to the month's
  /// last day, and resolve DST with `ZoneResolver`. Leap seconds do not exist (Unix time).
  public func occurrence(_ index: Int, zones: Zones) -> Date? {
    OccurrenceSequence(self, zones: zones).occurrence(index)
  }

  /// The first occurrence at or after `instant`, starting the search at `index`.
  ///
  /// Cost is logarithmic in the distance from a direct estimate, so a minute repeat
  /// anchored years ago is as cheap as a fresh one.
  public func firstOccurrence(atOrAfter instant: Date, from index: Int = 0, zones: Zones)
    -> (index: Int, date: Date)?
  {
    OccurrenceSequence(self, zones: zones).first(atOrAfter: instant, from: index)
  }

  /// The latest occurrence at or before `instant`, not earlier than `index`.
  ///
  /// Occurrences past `repeatCount` or `until` are never returned; the search is as cheap
  /// as `firstOccurrence(atOrAfter:from:zones:)`.
  public func latestOccurrence(atOrBefore instant: Date, from index: Int = 0, zones: Zones)
    -> (index: Int, date: Date)?
  {
    OccurrenceSequence(self, zones: zones).latest(atOrBefore: instant, from: index)
  }

  /// Up to `count` occurrence instants starting at occurrence `index`.
  public func upcoming(_ count: Int, from index: Int = 0, zones: Zones) -> [Date] {
    let sequence = OccurrenceSequence(self, zones: zones)
    var dates: [Date] = []
    var next = max(index, 0)
    while dates.count < count, let date = sequence.occurrence(next) {
      dates.append(date)
      next += 1
    }
    return dates
  }
}
