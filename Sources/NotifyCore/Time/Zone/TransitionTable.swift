/// A zone's transitions as a TZif file lists them, and the POSIX TZ rule of its footer for
/// instants past the last one (RFC 8536 §3.3).
struct TransitionTable: Sendable, Hashable {
  /// Transition instants, Unix seconds, strictly ascending.
  let times: [Int64]
  /// For each transition, the index into `types` of the local time type it starts.
  let typeIndices: [UInt8]
  /// The local time types; `types[0]` applies before the first transition.
  let types: [LocalTimeType]
  /// The footer's rule, for instants after the last transition; nil when the file has
  /// none (version 1, or an empty footer), and then the last transition's type holds.
  let footer: POSIXTimeZone?

  /// The transitions that change the local time type, ascending: the table's without
  /// those that change nothing (zic writes some; a file may hold thousands).
  let changes: [Int64]

  init(times: [Int64], typeIndices: [UInt8], types: [LocalTimeType], footer: POSIXTimeZone?) {
    self.times = times
    self.typeIndices = typeIndices
    self.types = types
    self.footer = footer
    var changes: [Int64] = []
    var previous = types[0]
    for (time, index) in zip(times, typeIndices) {
      let type = types[Int(index)]
      if type != previous { changes.append(time) }
      previous = type
    }
    self.changes = changes
  }

  /// The first change after `unixSeconds`: a binary search of `changes`, then the footer's
  /// rule past the table's last entry.
  func nextTransition(after unixSeconds: Int64) -> Int64? {
    var low = 0
    var high = changes.count
    while low < high {
      let middle = (low + high) / 2
      if changes[middle] <= unixSeconds { low = middle + 1 } else { high = middle }
    }
    if low < changes.count { return changes[low] }
    return footer?.nextTransition(after: max(unixSeconds, times.last ?? unixSeconds))
  }

  func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
    guard let last = times.last else { return footer?.localTimeType(at: unixSeconds) ?? types[0] }
    if unixSeconds > last, let footer { return footer.localTimeType(at: unixSeconds) }
    // The last transition at or before `unixSeconds`.
    var low = 0
    var high = times.count
    while low < high {
      let middle = (low + high) / 2
      if times[middle] <= unixSeconds { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? types[0] : types[Int(typeIndices[low - 1])]
  }
}
