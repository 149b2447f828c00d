import Foundation
import NotifyFiring
import Testing

/// What the daemon gives back as it goes idle: the mappings of its executable's read-only
/// pages (here the test runner's own), which the next use maps again.
@Suite struct IdleTrimTests {
  /// The resident KiB of this process's mappings of its own executable without write
  /// permission (`/proc/self/smaps`).
  static func residentReadOnlyKiB() throws -> Int {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
    var total = 0
    var counting = false
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let range = fields.first, range.contains("-"), fields.count >= 5, !line.hasPrefix("Rss") {
        counting = fields.last.map(String.init) == executable && !fields[1].contains("w")
      } else if counting, fields.first == "Rss:", let kib = Int(fields[1]) {
        total += kib
      }
    }
    return total
  }

  @Test("the executable's read-only pages are unmapped, and what runs next maps them again")
  func dropsReadOnlyPages() throws {
    // Given this process, its code and read-only data mapped as far as it ran
    let trim = IdleTrim()
    let before = try Self.residentReadOnlyKiB()
    #expect(before > 0)
    // When it is trimmed
    trim.run()
    // Then far fewer of those pages are mapped (what reading smaps ran mapped some again),
    // and the process runs on
    let after = try Self.residentReadOnlyKiB()
    #expect(after < before / 2, "\(after) KiB resident after, \(before) KiB before")
  }
}
