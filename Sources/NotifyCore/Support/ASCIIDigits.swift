/// Fixed-width decimal fields of ASCII text, as iCalendar's DATE and DATE-TIME values
/// (`YYYYMMDDTHHMMSS`) carry them.
package enum ASCIIDigits {
  /// The number the bytes in `range` spell, or nil when the range runs past the end or
  /// holds anything but the digits 0-9.
  package static func value(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    guard range.upperBound <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[range] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
