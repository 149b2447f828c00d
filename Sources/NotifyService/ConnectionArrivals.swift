/// When the bus first showed each connection, as far as the daemon saw it: a connection's
/// unique name (`:1.42`) is given in order of arrival, so the time any later name was seen
/// bounds when an earlier one appeared. Pure: the times are given (nanoseconds of
/// `CLOCK_BOOTTIME`, the clock of a process's start time in `/proc/PID/stat`).
struct ConnectionArrivals {
  /// Names seen arriving and when, in order of arrival.
  private var seen: [(serial: Serial, at: UInt64)] = []
  /// How many are kept; the older half goes beyond it (the bound for those grows looser,
  /// never wrong: a later name's time still bounds them).
  let capacity: Int

  /// A unique name's place in the bus's order: `:A.B` as (A, B).
  struct Serial: Comparable, Hashable {
    var major: UInt64
    var minor: UInt64

    init?(_ name: String) {
      guard name.hasPrefix(":") else { return nil }
      let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, let major = UInt64(parts[0]), let minor = UInt64(parts[1]) else { return nil }
      self.major = major
      self.minor = minor
    }

    static func < (a: Serial, b: Serial) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
  }

  init(capacity: Int = 65_536) {
    self.capacity = capacity
  }

  /// Records that `name` was seen arriving at `time`.
  mutating func arrived(_ name: String, at time: UInt64) {
    guard let serial = Serial(name) else { return }
    if let last = seen.last, serial <= last.serial { return }
    seen.append((serial, time))
    if seen.count > capacity { seen.removeFirst(seen.count / 2) }
  }

  /// A time by which the connection `name` had appeared: when it, or the first name after
  /// it, was seen arriving; `now` when none was (it came before the daemon watched, and
  /// only `now` is sure). Nil for a name that is not a unique name.
  func appeared(_ name: String, now: UInt64) -> UInt64? {
    guard let serial = Serial(name) else { return nil }
    var low = 0
    var high = seen.count
    while low < high {
      let middle = (low + high) / 2
      if seen[middle].serial < serial { low = middle + 1 } else { high = middle }
    }
    return low < seen.count ? seen[low].at : now
  }
}
