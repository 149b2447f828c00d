import Foundation

/// Ids for the messages of one run: a prefix unique to the run, then a counter, such as
/// `msg-mwtijxkx-4d2-1`, `msg-mwtijxkx-4d2-2`. A new run (or another client running
/// beside this one) does not reuse the ids of an earlier one, whose bubbles the desktop
/// may still show: a notification with the same id would replace them.
struct MessageNumbering: Sendable {
  let prefix: String
  private var count = 0

  /// Numbering under `prefix`; by default one made of the start time in milliseconds and
  /// the process id.
  init(prefix: String = MessageNumbering.runPrefix()) {
    self.prefix = prefix
  }

  /// `msg-` with the time in milliseconds and the process id, in base 36.
  static func runPrefix() -> String {
    let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
    return "msg-\(String(milliseconds, radix: 36))-\(String(getpid(), radix: 36))"
  }

  /// The next id.
  mutating func next() -> String {
    count += 1
    return "\(prefix)-\(count)"
  }
}
