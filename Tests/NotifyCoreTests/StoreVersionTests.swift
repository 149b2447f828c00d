import NotifyCore
import Testing

/// The WAL index mark a firer keeps: trusted after its own write only when the
/// header moved by that commit alone.
@Suite("StoreVersion: a mark that never hides another commit")
struct StoreVersionTests {
  /// A header whose change counter is `counter` and whose salts are `salts`.
  static func header(counter: UInt32, salts: (UInt32, UInt32) = (7, 9), frames: UInt32 = 3) -> StoreVersion {
    var bytes = [UInt8](repeating: 0, count: 96)
    func put(_ value: UInt32, at offset: Int) {
      withUnsafeBytes(of: value) { for (i, byte) in $0.enumerated() { bytes[offset + i] = byte } }
    }
    put(counter, at: 8)
    put(frames, at: 16)
    put(salts.0, at: 32)
    put(salts.1, at: 36)
    return StoreVersion(bytes)
  }

  @Test(
    "one commit (or none, or one that restarted the WAL) follows; two commits, or two steps on the same WAL, do not",
    arguments: [
      (UInt32(10), (UInt32(7), UInt32(9)), true),  // nothing written
      (11, (7, 9), true),  // this commit
      (12, (8, 1), true),  // this commit, restarting the WAL (new salts)
      (12, (7, 9), false),  // this commit and another
      (13, (8, 1), false),  // a restart and another commit besides
      (9, (7, 9), false),  // backwards: another file
    ])
  func follows(counter: UInt32, salts: (UInt32, UInt32), expected: Bool) {
    let before = Self.header(counter: 10)
    #expect(Self.header(counter: counter, salts: salts, frames: 5).followsByOneCommit(before) == expected)
  }

  @Test("the counter wraps like SQLite's u32")
  func wraps() {
    #expect(Self.header(counter: 0).followsByOneCommit(Self.header(counter: .max)))
  }
}
