/// A strict RFC 8259 reader for the JSON users give notify (`--user-info`, payloads): what
/// the RFC allows and nothing more (no trailing commas, comments, NaN or single quotes), a
/// key twice in one object is refused (the RFC leaves it undefined; keeping one silently
/// loses data), and an integer is kept exactly or refused (past 64 bits), never rounded.
struct JSONParser {
  /// Why a text was refused, and where (a byte offset).
  struct Failure: Error {
    var reason: String
    var offset: Int
  }

  /// How deep arrays and objects may nest.
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  init(_ text: String) { bytes = Array(text.utf8) }

  /// The one value `text` holds, with nothing but whitespace around it.
  static func parse(_ text: String) throws(Failure) -> JSONValue {
    var parser = JSONParser(text)
    parser.skipWhitespace()
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.position == parser.bytes.count else { throw parser.fail("text after the value") }
    return value
  }

  private func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: position) }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
  }

  private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
    let utf8 = Array(literal.utf8)
    guard bytes.count - position >= utf8.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
      throw fail("an unknown word (only true, false and null are words in JSON)")
    }
    position += utf8.count
    return value
  }

  private mutating func value() throws(Failure) -> JSONValue {
    guard let byte = current else { throw fail("the text ends where a value should be") }
    switch byte {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw fail("'\(Unicode.Scalar(byte))' cannot start a value")
    }
  }

  private mutating func nest() throws(Failure) {
    depth += 1
    guard depth <= Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func object() throws(Failure) -> JSONValue {
    try nest()
    position += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else {
        throw fail(current == UInt8(ascii: "}") ? "a comma before }" : "an object key that is not a string")
      }
      let keyOffset = position
      let key = try string()
      guard members[key] == nil else {
        throw Failure(
          reason: "the key \"\(Escaper.visible(key, limit: 40))\" appears twice in one object",
          offset: keyOffset)
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw fail("a missing : after an object key") }
      position += 1
      skipWhitespace()
      members[key] = try value()
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        return .object(members)
      default: throw fail("a missing , or } in an object")
      }
    }
  }

  private mutating func array() throws(Failure) -> JSONValue {
    try nest()
    position += 1
    var values: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array(values)
    }
    while true {
      skipWhitespace()
      if current == UInt8(ascii: "]") { throw fail("a comma before ]") }
      values.append(try value())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        return .array(values)
      default: throw fail("a missing , or ] in an array")
      }
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard bytes.count - position >= 4 else { throw fail("a \\u escape with fewer than 4 hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = current.flatMap({ Character(Unicode.Scalar($0)).hexDigitValue }) else {
        throw fail("a \\u escape with fewer than 4 hex digits")
      }
      value = value * 16 + UInt32(digit)
      position += 1
    }
    return value
  }

  private mutating func string() throws(Failure) -> String {
    position += 1
    var scalars = String.UnicodeScalarView()
    var run = position  // start of the bytes copied as they are
    func flush(_ parser: JSONParser, upTo end: Int) {
      scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while true {
      guard let byte = current else { throw fail("a string that never ends") }
      switch byte {
      case UInt8(ascii: "\""):
        flush(self, upTo: position)
        position += 1
        return String(scalars)
      case 0x00...0x1F:
        throw fail("a control character inside a string (write it as \\n, \\t or \\u00XX)")
      case UInt8(ascii: "\\"):
        flush(self, upTo: position)
        position += 1
        guard let escape = current else { throw fail("a string that never ends") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw fail("a lone high surrogate in a \\u escape") }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate without its low half") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(code) {
            throw fail("a lone low surrogate in a \\u escape")
          }
          guard let scalar = Unicode.Scalar(code) else { throw fail("an invalid \\u escape") }
          scalars.append(scalar)
        default: throw fail("an unknown escape \\\(Unicode.Scalar(escape))")
        }
        run = position
      default:
        position += 1
      }
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = position
    func digits(_ parser: inout JSONParser) -> Int {
      let from = parser.position
      while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        parser.position += 1
      }
      return parser.position - from
    }
    if current == UInt8(ascii: "-") { position += 1 }
    if current == UInt8(ascii: "0") {
      position += 1
      if let next = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
        throw fail("a number with a leading zero")
      }
    } else if digits(&self) == 0 {
      throw fail("a - without digits")
    }
    var isInteger = true
    if current == UInt8(ascii: ".") {
      position += 1
      isInteger = false
      guard digits(&self) > 0 else { throw fail("a number with no digits after its decimal point") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      isInteger = false
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard digits(&self) > 0 else { throw fail("a number with no digits in its exponent") }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger {
      guard let integer = Int64(text) else {
        throw Failure(
          reason:
            "the integer \(text.prefix(40)) does not fit in 64 bits (write it as a string to keep it exactly)",
          offset: start)
      }
      return .int(integer)
    }
    guard let double = Double(text), double.isFinite else {
      throw Failure(reason: "the number \(text.prefix(40)) is too large", offset: start)
    }
    return .double(double)
  }
}
