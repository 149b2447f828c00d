extension TransitionTable {
  /// Parses TZif bytes (RFC 8536, versions 1 to 4). Version 1 files are read from their
  /// 32-bit block; later ones from the 64-bit block after it, with the footer's TZ string.
  /// Leap-second records are skipped, as Python's zoneinfo does: notify counts Unix time.
  init(tzif bytes: [UInt8]) throws {
    var reader = TZifReader(bytes: bytes)
    let first = try reader.header()
    guard first.version >= 2 else {
      let block = try reader.block(first, timeSize: 4)
      self = try TransitionTable(block, footer: nil)
      return
    }
    try reader.skip(first.blockSize(timeSize: 4))
    let second = try reader.header()
    let block = try reader.block(second, timeSize: 8)
    let footerText = try reader.footer()
    var footer: POSIXTimeZone?
    if !footerText.isEmpty {
      do {
        footer = try POSIXTimeZone(footerText)
      } catch {
        throw ZoneDataError(
          "the footer '\(footerText)' is not a POSIX TZ string (\(ZoneDataError.reason(error)))")
      }
    }
    self = try TransitionTable(block, footer: footer)
  }

  private init(_ block: TZifReader.Block, footer: POSIXTimeZone?) throws {
    for (earlier, later) in zip(block.times, block.times.dropFirst()) where earlier >= later {
      throw ZoneDataError("transition times are not in ascending order (\(earlier), then \(later))")
    }
    for index in block.typeIndices where Int(index) >= block.types.count {
      throw ZoneDataError("a transition names local time type \(index), but there are \(block.types.count)")
    }
    self.init(times: block.times, typeIndices: block.typeIndices, types: block.types, footer: footer)
  }
}

/// A cursor over TZif bytes.
private struct TZifReader {
  let bytes: [UInt8]
  var position = 0

  struct Header {
    let version: Int
    let isUTCCount: Int
    let isStandardCount: Int
    let leapCount: Int
    let timeCount: Int
    let typeCount: Int
    let characterCount: Int

    func blockSize(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + characterCount
        + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
    }
  }

  struct Block {
    let times: [Int64]
    let typeIndices: [UInt8]
    let types: [LocalTimeType]
  }

  /// The UT offsets a local time type may have (RFC 8536 §3.2: -25 h < offset < 26 h).
  static let utcOffsets: ClosedRange<Int32> = -89_999...93_599

  mutating func header() throws -> Header {
    guard bytes.count - position >= 44 else {
      throw ZoneDataError("\(bytes.count) bytes is too short for a TZif header")
    }
    guard bytes[position..<position + 4].elementsEqual("TZif".utf8) else {
      throw ZoneDataError("it does not start with the magic 'TZif'")
    }
    let versionByte = bytes[position + 4]
    let version: Int
    switch versionByte {
    case 0: version = 1
    case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
    default: throw ZoneDataError("unknown version byte \(versionByte)")
    }
    position += 20
    var counts: [Int] = []
    for _ in 0..<6 { counts.append(Int(try uint32())) }
    let header = Header(
      version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
      timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    guard header.typeCount >= 1 else { throw ZoneDataError("it has no local time types") }
    guard header.typeCount <= 256 else {
      throw ZoneDataError("\(header.typeCount) local time types is more than 256")
    }
    guard header.characterCount >= 1 else { throw ZoneDataError("it has no designations") }
    guard header.isUTCCount == 0 || header.isUTCCount == header.typeCount,
      header.isStandardCount == 0 || header.isStandardCount == header.typeCount
    else {
      throw ZoneDataError("the UT/local and standard/wall indicator counts do not match the type count")
    }
    return header
  }

  mutating func skip(_ count: Int) throws {
    guard count <= bytes.count - position else {
      throw ZoneDataError("the file ends inside its data block (truncated)")
    }
    position += count
  }

  mutating func block(_ header: Header, timeSize: Int) throws -> Block {
    guard header.blockSize(timeSize: timeSize) <= bytes.count - position else {
      throw ZoneDataError("the file ends inside its data block (truncated)")
    }
    var times: [Int64] = []
    times.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      times.append(timeSize == 8 ? Int64(bitPattern: try uint64()) : Int64(Int32(bitPattern: try uint32())))
    }
    let typeIndices = Array(bytes[position..<position + header.timeCount])
    position += header.timeCount
    var rawTypes: [(offset: Int32, isDST: Bool, designation: Int)] = []
    for _ in 0..<header.typeCount {
      let offset = Int32(bitPattern: try uint32())
      guard Self.utcOffsets.contains(offset) else {
        throw ZoneDataError("a UT offset of \(offset) s is outside RFC 8536's -89999...93599")
      }
      let isDST = bytes[position]
      guard isDST <= 1 else { throw ZoneDataError("a DST indicator of \(isDST) is neither 0 nor 1") }
      let designation = Int(bytes[position + 1])
      position += 2
      guard designation < header.characterCount else {
        throw ZoneDataError(
          "a designation index \(designation) lies past the \(header.characterCount) designation bytes")
      }
      rawTypes.append((offset, isDST == 1, designation))
    }
    let characters = bytes[position..<position + header.characterCount]
    position += header.characterCount
    let types = rawTypes.map { raw in
      let start = characters.startIndex + raw.designation
      let end = characters[start...].firstIndex(of: 0) ?? characters.endIndex
      return LocalTimeType(
        utcOffset: Int(raw.offset), isDaylightSavingTime: raw.isDST,
        abbreviation: String(decoding: characters[start..<end], as: UTF8.self))
    }
    position += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
    return Block(times: times, typeIndices: typeIndices, types: types)
  }

  /// The footer of a version 2+ file: the TZ string between two newlines.
  mutating func footer() throws -> String {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else {
      throw ZoneDataError("the footer does not start with a newline")
    }
    let start = position + 1
    guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
      throw ZoneDataError("the footer does not end with a newline")
    }
    let text = bytes[start..<end]
    guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else {
      throw ZoneDataError("the footer holds bytes other than printable ASCII")
    }
    return String(decoding: text, as: UTF8.self)
  }

  private mutating func uint32() throws -> UInt32 { try bigEndian() }

  private mutating func uint64() throws -> UInt64 { try bigEndian() }

  /// The next big-endian unsigned integer of `T`'s width.
  private mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>() throws -> T {
    let size = T.bitWidth / 8
    guard bytes.count - position >= size else {
      throw ZoneDataError("the file ends inside its data block (truncated)")
    }
    var value: T = 0
    for byte in bytes[position..<position + size] { value = value << 8 | T(byte) }
    position += size
    return value
  }
}
