import Foundation
import Glibc

/// CLOCK_REALTIME now, in seconds since 1970: the clock notifications are due on.
public func realNow() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_REALTIME, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CLOCK_MONOTONIC now, in seconds: for durations.
public func monotonicNow() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Sample statistics.
public enum Stats {
  /// The `p` quantile (0...1) by the nearest-rank rule; nan when empty.
  public static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((Double(sorted.count) * p).rounded(.up)) - 1
    return sorted[min(sorted.count - 1, max(0, rank))]
  }

  /// The median (the mean of the middle two for an even count); nan when empty.
  public static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}

/// A failure of a benchmark harness; printed and turned into exit status 1.
public struct BenchError: Error, CustomStringConvertible {
  /// What went wrong and what to do.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}

/// Prints on stderr.
public func warn(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Runs a harness body, printing a `BenchError` (or any error) and exiting 1 on failure.
public func runHarness(_ name: String, _ body: () throws -> Void) -> Never {
  do {
    try body()
    exit(0)
  } catch {
    warn("\(name): \(error)")
    exit(1)
  }
}
