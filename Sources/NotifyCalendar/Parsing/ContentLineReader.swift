/// Splits a file's bytes into unfolded content lines (RFC 5545 §3.1), in one pass and
/// with bounded memory: a logical line longer than `maxLineBytes` is skipped with a
/// warning instead of being built, so a 50 MB file of one line costs a scan, not 50 MB
/// of strings.
///
/// Lenient where real files are: LF alone ends a line as CRLF does, a continuation starts
/// with a space or a tab, empty lines are skipped. A line with no colon, or a name that is
/// not letters, digits and `-`, is skipped with a warning naming its line.
public struct ContentLineReader {
  /// The longest unfolded content line read (1 MiB): far above any real property, a
  /// bound on what one line may cost.
  public static let maxLineBytes = 1 << 20

  private let bytes: [UInt8]
  private var position = 0
  private var physicalLine = 0
  /// Problems found so far.
  public private(set) var warnings: [CalendarWarning] = []

  /// A reader over `bytes`.
  public init(bytes: [UInt8]) {
    self.bytes = bytes
    // A UTF-8 byte order mark before BEGIN is not part of the first name.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
  }

  /// The next content line, or nil at the end of the bytes.
  public mutating func next() -> ContentLine? {
    while position < bytes.count {
      let start = position
      let firstLine = physicalLine + 1
      var logical: [UInt8] = []
      var tooLong = false
      // One physical line, then its continuations.
      repeat {
        let (content, end) = physicalLineBounds(from: position)
        physicalLine += 1
        if !tooLong {
          let first = position == start ? content.lowerBound : content.lowerBound + 1
          if logical.count + (content.upperBound - first) > Self.maxLineBytes {
            tooLong = true
            logical = []
          } else if first < content.upperBound {
            logical.append(contentsOf: bytes[first..<content.upperBound])
          }
        }
        position = end
      } while position < bytes.count && (bytes[position] == 0x20 || bytes[position] == 0x09)
      if tooLong {
        warnings.append(
          CalendarWarning(
            line: firstLine, property: "",
            "skipped: the line is longer than \(Self.maxLineBytes) bytes unfolded"))
        continue
      }
      if logical.isEmpty { continue }
      if let line = Self.parse(logical, line: firstLine, range: start..<position, warnings: &warnings) {
        return line
      }
    }
    return nil
  }

  /// The content of the physical line at `from` (without its ending) and where the next starts.
  private func physicalLineBounds(from: Int) -> (Range<Int>, Int) {
    var end = from
    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
    let next = end < bytes.count ? end + 1 : end
    let contentEnd = end > from && bytes[end - 1] == 0x0D ? end - 1 : end
    return (from..<contentEnd, next)
  }

  /// `NAME *(";" param) ":" value`, or nil (with a warning) when it is not one.
  static func parse(
    _ bytes: [UInt8], line: Int, range: Range<Int>, warnings: inout [CalendarWarning]
  ) -> ContentLine? {
    var index = 0
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        || byte == 0x2D
    }
    while index < bytes.count && isNameByte(bytes[index]) { index += 1 }
    let name = String(decoding: bytes[0..<index], as: UTF8.self).uppercased()
    func fail(_ problem: String) -> ContentLine? {
      let shown = name.isEmpty ? String(decoding: bytes.prefix(20), as: UTF8.self) : name
      warnings.append(CalendarWarning(line: line, property: shown, "skipped: \(problem)"))
      return nil
    }
    guard !name.isEmpty else { return fail("not a content line (NAME:value)") }
    var parameters: [ContentLine.Parameter] = []
    while index < bytes.count && bytes[index] == 0x3B {  // ;
      index += 1
      let nameStart = index
      while index < bytes.count && isNameByte(bytes[index]) { index += 1 }
      guard index > nameStart, index < bytes.count, bytes[index] == 0x3D else {  // =
        return fail("a parameter is NAME=VALUE")
      }
      let parameterName = String(decoding: bytes[nameStart..<index], as: UTF8.self).uppercased()
      index += 1
      var values: [String] = []
      while true {
        if index < bytes.count && bytes[index] == 0x22 {  // "
          let valueStart = index + 1
          guard let close = bytes[valueStart...].firstIndex(of: 0x22) else {
            return fail("a quoted parameter value is not closed")
          }
          values.append(String(decoding: bytes[valueStart..<close], as: UTF8.self))
          index = close + 1
        } else {
          let valueStart = index
          while index < bytes.count && bytes[index] != 0x2C && bytes[index] != 0x3B && bytes[index] != 0x3A {
            index += 1
          }
          values.append(String(decoding: bytes[valueStart..<index], as: UTF8.self))
        }
        guard index < bytes.count, bytes[index] == 0x2C else { break }  // ,
        index += 1
      }
      parameters.append(ContentLine.Parameter(name: parameterName, values: values))
    }
    guard index < bytes.count, bytes[index] == 0x3A else { return fail("no ':' before the value") }
    let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
    return ContentLine(name: name, parameters: parameters, value: value, line: line, byteRange: range)
  }
}
