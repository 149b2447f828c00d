/// Fixed-width integers read from a short byte array at given offsets; out-of-range
/// reads give nil instead of trapping, so a short header can never crash the reader.
struct ByteView {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var count: Int { bytes.count }

  /// The four bytes at `offset` as text, e.g. `RIFF`, or nil when they are not there.
  func fourCC(_ offset: Int) -> String? {
    guard offset >= 0, offset + 4 <= bytes.count else { return nil }
    return FourCC.text(bytes[offset..<offset + 4])
  }

  func uint16LE(_ offset: Int) -> UInt16? { integer(offset, 2, bigEndian: false).map { UInt16($0) } }
  func uint32LE(_ offset: Int) -> UInt32? { integer(offset, 4, bigEndian: false).map { UInt32($0) } }
  func uint16BE(_ offset: Int) -> UInt16? { integer(offset, 2, bigEndian: true).map { UInt16($0) } }
  func uint32BE(_ offset: Int) -> UInt32? { integer(offset, 4, bigEndian: true).map { UInt32($0) } }
  func uint64BE(_ offset: Int) -> UInt64? { integer(offset, 8, bigEndian: true) }
  func uint64LE(_ offset: Int) -> UInt64? { integer(offset, 8, bigEndian: false) }

  /// True when `expected` is at `offset`.
  func has(_ expected: [UInt8], at offset: Int) -> Bool {
    slice(offset, expected.count)?.elementsEqual(expected) ?? false
  }

  /// An IEEE 754 double stored big-endian (CAF's sample rate).
  func float64BE(_ offset: Int) -> Double? { uint64BE(offset).map { Double(bitPattern: $0) } }

  /// The bytes `offset..<offset+count`, or nil when they are not all there.
  func slice(_ offset: Int, _ count: Int) -> ArraySlice<UInt8>? {
    guard offset >= 0, count >= 0, offset + count <= bytes.count else { return nil }
    return bytes[offset..<offset + count]
  }

  private func integer(_ offset: Int, _ width: Int, bigEndian: Bool) -> UInt64? {
    guard offset >= 0, offset + width <= bytes.count else { return nil }
    var value: UInt64 = 0
    for index in 0..<width {
      let byte = UInt64(bytes[bigEndian ? offset + index : offset + width - 1 - index])
      value = value << 8 | byte
    }
    return value
  }
}

/// Four-character codes (chunk ids, AIFC compression types, CAF format ids).
enum FourCC {
  /// The code as text; bytes outside printable ASCII are shown as `\xNN`.
  static func text(_ bytes: ArraySlice<UInt8>) -> String {
    var out = ""
    for byte in bytes {
      if (0x20...0x7E).contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }
}

extension String {
  func leftPadded(to width: Int, with pad: Character = "0") -> String {
    count >= width ? self : String(repeating: pad, count: width - count) + self
  }
}
