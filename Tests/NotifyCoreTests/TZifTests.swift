import Testing

@testable import NotifyCore

/// TZif bytes written out by hand (RFC 8536 §3), so the reader is checked against the
/// format rather than against itself.
struct TZifBytes {
  var version: UInt8 = UInt8(ascii: "2")
  var times: [Int64] = []
  var indices: [UInt8] = []
  /// (UT offset, DST, designation index)
  var types: [(Int32, UInt8, UInt8)] = [(0, 0, 0)]
  var designations = "UTC\0"
  var footer = ""
  var leapSeconds: [(Int64, Int32)] = []

  var bytes: [UInt8] {
    func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
    func block(wide: Bool) -> [UInt8] {
      var out: [UInt8] = Array("TZif".utf8) + [version == 0 ? 0 : version] + [UInt8](repeating: 0, count: 15)
      for count in [0, 0, leapSeconds.count, times.count, types.count, designations.utf8.count] {
        out += be(UInt32(count))
      }
      for t in times { out += wide ? be(t) : be(Int32(truncatingIfNeeded: t)) }
      out += indices
      for (offset, dst, index) in types { out += be(offset) + [dst, index] }
      out += Array(designations.utf8)
      for (t, c) in leapSeconds { out += (wide ? be(t) : be(Int32(truncatingIfNeeded: t))) + be(c) }
      return out
    }
    guard version != 0 else { return block(wide: false) }
    return block(wide: false) + block(wide: true) + Array("\n\(footer)\n".utf8)
  }
}

@Suite("TZif: reading zone files from their bytes")
struct TZifTests {
  /// A zone that moved from +01 to +02 at 2020-06-01T00:00Z, and to the footer after.
  static func moved(version: UInt8, footer: String) -> TZifBytes {
    TZifBytes(
      version: version, times: [1_590_969_600], indices: [1],
      types: [(3600, 0, 0), (7200, 0, 4)], designations: "+01\0+02\0", footer: footer)
  }

  @Test("version 1: the 32-bit table, the last type holds after it")
  func versionOne() throws {
    let zone = try Zone(identifier: "Test/One", tzif: Self.moved(version: 0, footer: "").bytes)
    #expect(
      zone.localTimeType(at: 1_590_969_599)
        == LocalTimeType(utcOffset: 3600, isDaylightSavingTime: false, abbreviation: "+01"))
    #expect(zone.utcOffset(at: 1_590_969_600) == 7200)
    #expect(zone.utcOffset(at: 4_000_000_000) == 7200)
    #expect(zone.identifier == "Test/One")
  }

  @Test(
    "version 2 and 3: the 64-bit table, then the footer's rule past it",
    arguments: [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4")])
  func footer(version: UInt8) throws {
    // Given a table ending in 2020 and a footer with European DST at +02/+03
    let bytes = Self.moved(version: version, footer: "<+02>-2<+03>,M3.5.0/3,M10.5.0/4").bytes
    let zone = try Zone(identifier: "Test/Two", tzif: bytes)
    // Then the table answers up to its end and the footer after: 2026-07-01 is DST
    #expect(zone.utcOffset(at: 1_590_969_600) == 7200)
    let summer = zone.localTimeType(at: 1_782_907_200)
    #expect(summer == LocalTimeType(utcOffset: 10800, isDaylightSavingTime: true, abbreviation: "+03"))
    #expect(zone.utcOffset(at: 1_798_758_000) == 7200)
  }

  @Test("a 64-bit transition before 1901 that the 32-bit block cannot hold is read from the second block")
  func wideTimes() throws {
    let bytes = TZifBytes(
      times: [-5_000_000_000, 1_590_969_600], indices: [1, 2],
      types: [(0, 0, 0), (3600, 0, 4), (7200, 0, 8)], designations: "LMT\0+01\0+02\0", footer: "<+02>-2"
    ).bytes
    let zone = try Zone(identifier: "Test/Wide", tzif: bytes)
    #expect(zone.localTimeType(at: -5_000_000_001).abbreviation == "LMT")
    #expect(zone.localTimeType(at: -5_000_000_000).abbreviation == "+01")
  }

  @Test("leap-second records are skipped, not read as transitions")
  func leapSeconds() throws {
    var file = Self.moved(version: UInt8(ascii: "2"), footer: "<+02>-2")
    file.leapSeconds = [(78_796_800, 1), (94_694_401, 2)]
    let zone = try Zone(identifier: "Test/Leap", tzif: file.bytes)
    #expect(zone.utcOffset(at: 1_590_969_600) == 7200)
    #expect(zone.utcOffset(at: 0) == 3600)
  }

  @Test("no transitions: the footer alone, or type 0")
  func noTransitions() throws {
    let posix = try Zone(identifier: "Test/Rule", tzif: TZifBytes(footer: "CET-1CEST,M3.5.0,M10.5.0/3").bytes)
    #expect(posix.utcOffset(at: 1_782_907_200) == 7200)
    let plain = try Zone(identifier: "Test/UTC", tzif: TZifBytes(footer: "").bytes)
    #expect(plain.localTimeType(at: 1_782_907_200).abbreviation == "UTC")
  }

  struct Broken: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let mentions: String
    var testDescription: String { name }
  }

  static let broken: [Broken] = {
    var wrongMagic = TZifTests.moved(version: 0, footer: "").bytes
    wrongMagic[0] = UInt8(ascii: "X")
    let good = TZifTests.moved(version: UInt8(ascii: "2"), footer: "<+02>-2").bytes
    var badIndex = TZifTests.moved(version: 0, footer: "")
    badIndex.indices = [7]
    var descending = TZifTests.moved(version: 0, footer: "")
    descending.times = [10, 5]
    descending.indices = [0, 1]
    var badDesignation = TZifTests.moved(version: 0, footer: "")
    badDesignation.types = [(0, 0, 40)]
    var noNewline = good
    noNewline.removeLast()
    var hugeOffset = TZifTests.moved(version: 0, footer: "")
    hugeOffset.types = [(3600, 0, 0), (Int32.max, 0, 4)]
    var hugeNegative = TZifTests.moved(version: 0, footer: "")
    hugeNegative.types = [(-1_000_000_000, 0, 0), (7200, 0, 4)]
    var justPast = TZifTests.moved(version: 0, footer: "")
    justPast.types = [(93_600, 0, 0), (7200, 0, 4)]
    return [
      Broken(name: "wrong magic", bytes: wrongMagic, mentions: "magic 'TZif'"),
      Broken(name: "short header", bytes: Array(good.prefix(20)), mentions: "too short"),
      Broken(name: "truncated data", bytes: Array(good.prefix(60)), mentions: "truncated"),
      Broken(name: "type index out of range", bytes: badIndex.bytes, mentions: "local time type 7"),
      Broken(name: "descending times", bytes: descending.bytes, mentions: "ascending"),
      Broken(name: "designation out of range", bytes: badDesignation.bytes, mentions: "designation index 40"),
      Broken(name: "footer without its newline", bytes: noNewline, mentions: "footer does not end"),
      Broken(
        name: "footer that is not a rule",
        bytes: TZifTests.moved(version: UInt8(ascii: "2"), footer: "nonsense!").bytes, mentions: "footer"),
      Broken(
        name: "UT offset 2^31-1", bytes: hugeOffset.bytes, mentions: "UT offset of 2147483647 s is outside"),
      Broken(
        name: "UT offset -10^9", bytes: hugeNegative.bytes, mentions: "UT offset of -1000000000 s is outside"),
      Broken(name: "UT offset 26 h", bytes: justPast.bytes, mentions: "UT offset of 93600 s is outside"),
    ]
  }()

  @Test("malformed files are refused naming the zone and the reason", arguments: broken)
  func refused(_ broken: Broken) {
    let error = #expect(throws: ZoneError.self) { try Zone(identifier: "Test/Broken", tzif: broken.bytes) }
    #expect(error?.description.contains("Test/Broken") == true)
    #expect(error?.description.contains(broken.mentions) == true, "\(error?.description ?? "")")
  }

  @Test("30,000 transitions that change nothing: the next real change is found without recursion or a scan")
  func manyUnchangedTransitions() throws {
    // Given a 64-bit table where only the last of 30,001 transitions changes the offset
    let count = 30_000
    var bytes = TZifBytes(
      types: [(3600, 0, 0), (3600, 0, 0), (7200, 1, 4)], designations: "+01\0+02\0", footer: "")
    bytes.times = (0..<count).map { 1_000_000_000 + Int64($0) * 60 } + [2_000_000_000]
    bytes.indices = (0..<count).map { UInt8($0 % 2) } + [2]
    let zone = try Zone(identifier: "Test/Flat", tzif: bytes.bytes)
    // When the next change after the first entry is asked for, Then it is the one real change
    #expect(zone.nextTransition(after: 999_999_999) == 2_000_000_000)
    #expect(zone.nextTransition(after: 1_500_000_000) == 2_000_000_000)
    #expect(zone.nextTransition(after: 2_000_000_000) == nil)
    #expect(zone.utcOffset(at: 1_999_999_999) == 3600)
    #expect(zone.utcOffset(at: 2_000_000_000) == 7200)
  }

  @Test("a zone's next change agrees with a walk of its offsets, entries that change nothing included")
  func nextTransitionMatchesTheOffsets() throws {
    // Given a table where every third transition changes nothing, and a footer after it
    var bytes = TZifBytes(
      types: [(3600, 0, 0), (7200, 1, 4), (3600, 0, 0)], designations: "+01\0+02\0",
      footer: "<+01>-1<+02>,M3.5.0,M10.5.0/3")
    bytes.times = (0..<30).map { 1_600_000_000 + Int64($0) * 86_400 * 40 }
    bytes.indices = (0..<30).map { [UInt8(1), 2, 0][$0 % 3] }
    let zone = try Zone(identifier: "Test/Mixed", tzif: bytes.bytes)
    // When walked from before the table to past it, Then each change found is where the offset changes
    var after: Int64 = 1_599_000_000
    var found = 0
    while let next = zone.nextTransition(after: after), next < 1_800_000_000 {
      #expect(zone.localTimeType(at: next) != zone.localTimeType(at: next - 1), "at \(next)")
      // and nothing changed between
      #expect(zone.localTimeType(at: next - 1) == zone.localTimeType(at: after + 1) || after + 1 == next)
      after = next
      found += 1
    }
    #expect(found >= 20)
  }
}
