/// Literals, so that `userInfo: ["room": "4B", "unread": 3, "muted": false]` reads as JSON.
extension JSONValue: ExpressibleByStringLiteral {
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// An integer.
  public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// A number with a fraction.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// An array.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// An object; a key given twice keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements) { $1 })
  }
}

extension JSONValue: ExpressibleByNilLiteral {
  /// `null`.
  public init(nilLiteral: ()) { self = .null }
}

/// Typed accessors: each is nil unless the value is of that kind, so
/// `event.userInfo["room"]?.stringValue` is the room or nil.
extension JSONValue {
  /// The string, for `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, for `.int`, and for a `.double` with no fraction that fits an `Int`.
  public var intValue: Int? {
    switch self {
    case .int(let value): return Int(exactly: value)
    case .double(let value): return Int(exactly: value)
    default: return nil
    }
  }

  /// The number, for `.double` and `.int`.
  public var doubleValue: Double? {
    switch self {
    case .double(let value): return value
    case .int(let value): return Double(value)
    default: return nil
    }
  }

  /// The truth value, for `.bool`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, for `.array`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, for `.object`.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// True for `.null`.
  public var isNull: Bool { self == .null }

  /// The member `key`, for `.object`; nil for other values and missing keys.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The element at `index`, for `.array`; nil for other values and indexes out of range.
  public subscript(index: Int) -> JSONValue? {
    guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}
