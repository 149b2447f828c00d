import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// Checks `Zone` (the TZif reader and the POSIX TZ rules of its footer) and `ZoneResolver`
/// against Python's zoneinfo, which nobody here wrote: many zones of the system's tz
/// database, instants on and around their transitions and far past their tables (the
/// footer rule), and wall-clock times in gaps and repeated hours (fold=0 is SPEC.md §2).
@Suite(
  "Zone against Python's zoneinfo",
  .enabled(if: ZoneOracle.isUsable, "needs /usr/bin/python3 with zoneinfo and /usr/share/zoneinfo"))
struct ZoneOracleTests {
  /// The seed; `NOTIFY_ZONE_ORACLE_SEED` replaces it to rerun a failure.
  static let seed =
    ProcessInfo.processInfo.environment["NOTIFY_ZONE_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_123
  /// Zones per run, drawn from every zone in the database.
  static let zoneCount = 400

  @Test("offsets, abbreviations and DST flags at random instants around transitions and past the table")
  func instants() throws {
    // Given random zones and instants near their transitions, and years 2040...2400
    var random = SeededGenerator(seed: Self.seed)
    let names = ZoneOracle.allZones().shuffled(using: &random).prefix(Self.zoneCount)
    var questions: [(zone: Zone, instant: Int64)] = []
    for name in names {
      let zone = testZone(name)
      for instant in ZoneOracle.instants(in: zone, using: &random) { questions.append((zone, instant)) }
    }
    // When zoneinfo answers the same questions
    let answers = try ZoneOracle.ask(questions.map { "i \($0.zone.identifier) \($0.instant)" })
    // Then notify's Zone agrees on every one
    var mismatches = 0
    for (question, answer) in zip(questions, answers) {
      let type = question.zone.localTimeType(at: question.instant)
      let ours = "\(type.utcOffset) \(type.isDaylightSavingTime ? 1 : 0) \(type.abbreviation)"
      if ours != answer {
        mismatches += 1
        if mismatches <= 20 {
          Issue.record(
            "seed \(Self.seed): \(question.zone.identifier) at \(question.instant): notify \(ours), zoneinfo \(answer)"
          )
        }
      }
    }
    #expect(mismatches == 0)
    #expect(questions.count > Self.zoneCount * 20)
    print(
      "zone oracle: \(questions.count) instants in \(names.count) zones agreed with zoneinfo (seed \(Self.seed))"
    )
  }

  @Test("wall-clock times resolve as zoneinfo with fold=0: gaps move forward, repeats take the first")
  func wallClockTimes() throws {
    // Given wall-clock times just before, inside and after the gaps and repeats of random zones
    var random = SeededGenerator(seed: Self.seed &+ 1)
    let names = ZoneOracle.allZones().shuffled(using: &random).prefix(Self.zoneCount)
    var questions: [(zone: Zone, wall: WallClock)] = []
    for name in names {
      let zone = testZone(name)
      for instant in ZoneOracle.instants(in: zone, using: &random) {
        let offset = zone.utcOffset(at: instant)
        // Local times around the transition, read with the offsets on both sides of it
        for delta in [-7200, -3600, -1800, -1, 0, 1, 1800, 3599, 3600, 5400] {
          let wall = WallClock(localSeconds: instant + offset + Int64(delta))
          if (1...9998).contains(wall.year) { questions.append((zone, wall)) }
        }
      }
    }
    // When zoneinfo resolves them
    let answers = try ZoneOracle.ask(
      questions.map { q in
        let w = q.wall
        return "w \(q.zone.identifier) \(w.year) \(w.month) \(w.day) \(w.hour) \(w.minute) \(w.second)"
      })
    // Then ZoneResolver gives the same instants
    var mismatches = 0
    for (question, answer) in zip(questions, answers) {
      let ours = ZoneResolver.unixSeconds(for: question.wall, in: question.zone)
      if String(ours) != answer {
        mismatches += 1
        if mismatches <= 20 {
          Issue.record(
            "seed \(Self.seed): \(question.zone.identifier) \(question.wall.iso8601): notify \(ours), zoneinfo \(answer)"
          )
        }
      }
    }
    #expect(mismatches == 0)
    print("zone oracle: \(questions.count) wall-clock times in \(names.count) zones agreed with zoneinfo")
  }
}

/// Runs `zone_oracle.py` with Debian's Python.
enum ZoneOracle {
  static let python = "/usr/bin/python3"
  static let folder = "/usr/share/zoneinfo"
  static let script =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/zone_oracle.py").path

  static let isUsable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else {
      print("skipping the zone oracle: \(python) is missing (Debian: apt-get install python3)")
      return false
    }
    guard FileManager.default.fileExists(atPath: folder + "/tzdata.zi") else {
      print("skipping the zone oracle: no \(folder)/tzdata.zi (Debian: apt-get install tzdata)")
      return false
    }
    return true
  }()

  /// Every zone and link name in the database, from its `tzdata.zi` (lines `Z NAME` and
  /// `L TARGET NAME`), leaving out the ones zoneinfo does not read alike (`posixrules`).
  static func allZones() -> [String] {
    guard let text = try? String(contentsOfFile: folder + "/tzdata.zi", encoding: .utf8) else { return [] }
    var names: [String] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.first == "Z", fields.count > 1 { names.append(String(fields[1])) }
      if fields.first == "L", fields.count > 2 { names.append(String(fields[2])) }
    }
    return names.filter { FileManager.default.fileExists(atPath: folder + "/" + $0) }.sorted()
  }

  /// Instants worth asking about in `zone`: each side of a few of its transitions between
  /// 1850 and 2037, some random ones, and transitions from 2040 to 2400 (past every table,
  /// where the footer's rule answers).
  static func instants(in zone: Zone, using random: inout SeededGenerator) -> [Int64] {
    var instants: [Int64] = []
    let early: Int64 = -3_786_825_600  // 1850
    let tableEnd: Int64 = 2_114_380_800  // 2037
    let far: Int64 = 13_569_465_600  // 2400
    for range in [early..<tableEnd, tableEnd + 94_608_000..<far] {
      for _ in 0..<6 {
        let start = Int64.random(in: range, using: &random)
        instants.append(start)
        guard let next = zone.nextTransition(after: start), next < far else { continue }
        instants += [next - 1, next, next + 1, next + Int64.random(in: 2...90_000, using: &random)]
      }
    }
    return instants
  }

  static func ask(_ lines: [String]) throws -> [String] {
    let result = try CommandRunner(executable: python, environment: ["TZDIR": folder]).run(
      [script], stdin: lines.joined(separator: "\n") + "\n", timeout: 300)
    guard result.status == 0 else {
      throw ZoneOracleError("\(script) exited \(result.status): \(result.stderr)")
    }
    let answers = result.stdout.split(separator: "\n").map(String.init)
    guard answers.count == lines.count else {
      throw ZoneOracleError("it answered \(answers.count) questions of \(lines.count)")
    }
    return answers
  }
}

struct ZoneOracleError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
