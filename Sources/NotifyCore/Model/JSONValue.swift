import Foundation

/// A JSON value, used for `userInfo` and for everything notify prints as JSON.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}

extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let v): try container.encode(v)
    case .int(let v): try container.encode(v)
    case .double(let v): try container.encode(v)
    case .string(let v): try container.encode(v)
    case .array(let v): try container.encode(v)
    case .object(let v): try container.encode(v)
    }
  }
}

extension JSONValue {
  /// Parses JSON text strictly (RFC 8259, `JSONParser`): no trailing commas or other
  /// extensions, no key twice in an object, integers kept exactly (up to 64 bits) or refused.
  /// Throws `NotifyError.invalidData` naming the problem and where it is.
  public static func parse(_ text: String) throws(NotifyError) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw NotifyError(
        .invalidData, "the text is not valid JSON: \(error.reason) at byte \(error.offset)",
        fix: "write JSON as RFC 8259 has it (double quotes, no trailing commas, each key once)")
    }
  }

  /// Compact JSON text with object keys sorted, so output is stable.
  public var compactText: String {
    var out = ""
    write(to: &out)
    return out
  }

  /// Appends compact JSON to `out`.
  public func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let v): out += v ? "true" : "false"
    case .int(let v): out += String(v)
    case .double(let v):
      if v.isFinite, v == v.rounded(), abs(v) < 1e15 {
        out += String(Int64(v))
      } else if v.isFinite {
        out += "\(v)"
      } else {
        out += "null"
      }
    case .string(let v): JSONValue.writeString(v, to: &out)
    case .array(let values):
      out += "["
      for (i, value) in values.enumerated() {
        if i > 0 { out += "," }
        value.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, key) in members.keys.sorted().enumerated() {
        if i > 0 { out += "," }
        JSONValue.writeString(key, to: &out)
        out += ":"
        members[key]!.write(to: &out)
      }
      out += "}"
    }
  }

  static func writeString(_ s: String, to out: inout String) {
    // Fast path: most text needs no escaping, and appending it whole avoids a
    // scalar-by-scalar copy (this is on the stdout sink's hot path).
    if !s.utf8.contains(where: needsEscape) {
      out += "\""
      out += s
      out += "\""
      return
    }
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

extension JSONValue {
  /// Appends compact JSON to `out` as UTF-8: the bytes of `write(to:)` (a `String`), without
  /// building a string first (the stdout sink's line for every delivery of a burst).
  public func write(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let v): out.append(contentsOf: (v ? "true" : "false").utf8)
    case .int(let v): out.append(contentsOf: String(v).utf8)
    case .double:
      var text = ""
      write(to: &text)
      out.append(contentsOf: text.utf8)
    case .string(let v): JSONValue.writeString(v, to: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (i, value) in values.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, key) in members.keys.sorted().enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        members[key]!.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `writeString(_:to:)` as UTF-8: text that needs no escaping is copied whole.
  static func writeString(_ s: String, to out: inout [UInt8]) {
    guard s.utf8.contains(where: needsEscape) else {
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: s.utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    var text = ""
    writeString(s, to: &text)
    out.append(contentsOf: text.utf8)
  }

  /// Whether a UTF-8 byte may start something `writeString` escapes: a control character,
  /// a quote, a backslash, DEL, or the first byte of U+2028 and U+2029.
  static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
  }
}

/// A JSON object whose members keep the order they were added in, for readable output.
public struct JSONRecord: Sendable {
  public private(set) var members: [(key: String, value: JSONValue)] = []

  /// Creates an empty record with room for `capacity` members.
  public init(capacity: Int = 0) { members.reserveCapacity(capacity) }

  /// Appends a member.
  public mutating func set(_ key: String, _ value: JSONValue) {
    members.append((key, value))
  }

  /// Appends a member, `null` when `value` is nil.
  public mutating func set(_ key: String, _ value: String?) {
    members.append((key, value.map(JSONValue.string) ?? .null))
  }

  /// Appends a member, `null` when `value` is nil.
  public mutating func set(_ key: String, _ value: Int?) {
    members.append((key, value.map { .int(Int64($0)) } ?? .null))
  }

  /// Appends a member, `null` when `value` is nil.
  public mutating func set(_ key: String, _ value: Bool?) {
    members.append((key, value.map(JSONValue.bool) ?? .null))
  }

  /// The record as a value, to nest in another record or object (member order is lost:
  /// objects print with sorted keys).
  public var value: JSONValue { .object(Dictionary(members.map { ($0.key, $0.value) }) { $1 }) }

  /// Compact JSON text in insertion order.
  public var compactText: String {
    var out = "{"
    out.reserveCapacity(512)
    for (i, member) in members.enumerated() {
      if i > 0 { out += "," }
      JSONValue.writeString(member.key, to: &out)
      out += ":"
      member.value.write(to: &out)
    }
    return out + "}"
  }

  /// `compactText` as UTF-8 bytes, built without a `String` in between.
  public var compactUTF8: [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(512)
    for (i, member) in members.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      JSONValue.writeString(member.key, to: &out)
      out.append(UInt8(ascii: ":"))
      member.value.write(to: &out)
    }
    out.append(UInt8(ascii: "}"))
    return out
  }

  /// Pretty JSON text (two-space indent) in insertion order, for people.
  public func prettyText(indent: String = "") -> String {
    var out = "{\n"
    for (i, member) in members.enumerated() {
      out += indent + "  "
      JSONValue.writeString(member.key, to: &out)
      out += ": "
      member.value.write(to: &out)
      out += i == members.count - 1 ? "\n" : ",\n"
    }
    return out + indent + "}"
  }
}
