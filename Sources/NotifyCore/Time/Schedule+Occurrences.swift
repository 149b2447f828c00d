import Foundation

extension Schedule {
  /// The zone a `local` wall-clock schedule's next instant is computed in right now
  /// (`localZone`'s name); nil for schedules that do not follow the system zone.
  public func resolvedZone(localZone: TimeZone) -> String? {
    if case .wallClock(_, .local) = fireDate { return localZone.identifier }
    return nil
  }

  /// The instant of occurrence `index` (0-based; 0 is the anchor), or nil when the
  /// schedule has no such occurrence (not repeating, past `repeatCount` or `until`).
  /// `localZone` is what the `local` zone stands for now.
  ///
  /// `minute` and `hour` add elapsed time to the anchor's instant; `day`, `week`, `month`
  /// and `year` add calendar units to the anchor's wall-clock components in the
  /// notification's zone (UTC for absolute anchors), clamp a missing day to the month's
  /// last day, and resolve DST with `ZoneResolver`. Leap seconds do not exist (Unix time).
  public func occurrence(_ index: Int, localZone: TimeZone) -> Date? {
    OccurrenceSequence(self, localZone: localZone).occurrence(index)
  }

  /// The first occurrence at or after `instant`, starting the search at `index`.
  ///
  /// Cost is logarithmic in the distance from a direct estimate, so a minute repeat
  /// anchored years ago is as cheap as a fresh one.
  public func firstOccurrence(atOrAfter instant: Date, from index: Int = 0, localZone: TimeZone)
    -> (index: Int, date: Date)?
  {
    OccurrenceSequence(self, localZone: localZone).first(atOrAfter: instant, from: index)
  }

  /// The latest occurrence at or before `instant`, not earlier than `index`.
  ///
  /// Occurrences past `repeatCount` or `until` are never returned; the search is as cheap
  /// as `firstOccurrence(atOrAfter:from:localZone:)`.
  public func latestOccurrence(atOrBefore instant: Date, from index: Int = 0, localZone: TimeZone)
    -> (index: Int, date: Date)?
  {
    OccurrenceSequence(self, localZone: localZone).latest(atOrBefore: instant, from: index)
  }

  /// Up to `count` occurrence instants starting at occurrence `index`.
  public func upcoming(_ count: Int, from index: Int = 0, localZone: TimeZone) -> [Date] {
    let sequence = OccurrenceSequence(self, localZone: localZone)
    var dates: [Date] = []
    var next = max(index, 0)
    while dates.count < count, let date = sequence.occurrence(next) {
      dates.append(date)
      next += 1
    }
    return dates
  }
}
