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

  init(times: [Int64], typeIndices: [UInt8], types: [LocalTimeType], footer: POSIXTimeZone?) {
    self.times = times
    self.typeIndices = typeIndices
    self.types = types
    self.footer = footer
  }

  func nextTransition(after unixSeconds: Int64) -> Int64? {
    if let next = times.first(where: { $0 > unixSeconds }) {
      // Skip table entries that change nothing (zic writes some).
      let before = localTimeType(at: next - 1)
      if localTimeType(at: next) != before { return next }
      return nextTransition(after: next)
    }
    return footer?.nextTransition(after: unixSeconds)
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
