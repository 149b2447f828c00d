import CSystemd

extension BusMessage {
  /// Appends `value`, containers and all.
  func append(_ value: BusValue) throws(BusFailure) {
    switch value {
    case .byte(let v): try append(v)
    case .bool(let v): try append(v)
    case .int32(let v): try append(v)
    case .uint32(let v): try append(v)
    case .int64(let v): try appendBasic(v, "x")
    case .uint64(let v): try appendBasic(v, "t")
    case .double(let v): try appendBasic(v, "d")
    case .string(let v): try append(v)
    case .objectPath(let v): try append(v, as: "o")
    case .signature(let v): try append(v, as: "g")
    case .unixFD(let v): try appendBasic(v, "h")
    case .variant(let inner):
      try container("v", inner.signature) { () throws(BusFailure) in try append(inner) }
    case .array(let element, let values):
      try container("a", element) { () throws(BusFailure) in
        for value in values { try append(value) }
      }
    case .dictEntry(let key, let inner):
      try container("e", key.signature + inner.signature) { () throws(BusFailure) in
        try append(key)
        try append(inner)
      }
    case .structure(let members):
      try container("r", members.map(\.signature).joined()) { () throws(BusFailure) in
        for member in members { try append(member) }
      }
    }
  }

  private func appendBasic<T>(_ value: T, _ type: Character) throws(BusFailure) {
    var value = value
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code(type), &value), "appending a '\(type)'")
  }

  /// Reads every remaining value of the message within `limits`.
  func readValues(limits: BusReadLimits) throws(BusValueError) -> [BusValue] {
    var budget = limits.totalValues
    var values: [BusValue] = []
    while let value = try readValue(limits: limits, depth: 0, budget: &budget) { values.append(value) }
    return values
  }

  /// The next value at the current level, nil at its end.
  private func readValue(limits: BusReadLimits, depth: Int, budget: inout Int) throws(BusValueError)
    -> BusValue?
  {
    var type: CChar = 0
    var contents: UnsafePointer<CChar>? = nil
    let peeked = sd_bus_message_peek_type(handle, &type, &contents)
    guard peeked > 0 else {
      if peeked < 0 { throw BusValueError("the message could not be read (\(-peeked))") }
      return nil
    }
    budget -= 1
    guard budget >= 0 else { throw BusValueError("more than \(limits.totalValues) values in one call") }
    let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
    switch code {
    case "a", "v", "r", "e":
      guard depth < limits.depth else { throw BusValueError("containers nested deeper than \(limits.depth)") }
      let inner = contents.map { String(cString: $0) } ?? ""
      guard sd_bus_message_enter_container(handle, type, contents) >= 0 else {
        throw BusValueError("a '\(code)\(inner)' could not be read")
      }
      var members: [BusValue] = []
      while let member = try readValue(limits: limits, depth: depth + 1, budget: &budget) {
        members.append(member)
        if code == "a", members.count > limits.arrayCount {
          throw BusValueError("an array of more than \(limits.arrayCount) items")
        }
      }
      _ = sd_bus_message_exit_container(handle)
      switch code {
      case "a": return .array(element: inner, members)
      case "v":
        guard members.count == 1 else { throw BusValueError("an empty variant") }
        return .variant(members[0])
      case "e":
        guard members.count == 2 else { throw BusValueError("a dictionary entry without a key and a value") }
        return .dictEntry(members[0], members[1])
      default: return .structure(members)
      }
    default:
      return try readBasic(code, limits: limits)
    }
  }

  private func readBasic(_ code: Character, limits: BusReadLimits) throws(BusValueError) -> BusValue {
    func read<T>(_ initial: T) throws(BusValueError) -> T {
      var value = initial
      guard sd_bus_message_read_basic(handle, BusMessage.code(code), &value) >= 0 else {
        throw BusValueError("a '\(code)' could not be read")
      }
      return value
    }
    switch code {
    case "y": return .byte(try read(UInt8(0)))
    case "b": return .bool(try read(Int32(0)) != 0)
    case "n": return .int32(Int32(try read(Int16(0))))
    case "q": return .uint32(UInt32(try read(UInt16(0))))
    case "i": return .int32(try read(Int32(0)))
    case "u": return .uint32(try read(UInt32(0)))
    case "x": return .int64(try read(Int64(0)))
    case "t": return .uint64(try read(UInt64(0)))
    case "d": return .double(try read(Double(0)))
    case "h": return .unixFD(try read(Int32(0)))
    case "s", "o", "g":
      guard let pointer = try read(UnsafePointer<CChar>?.none) else {
        throw BusValueError("a missing string")
      }
      let length = strnlen(pointer, limits.stringBytes + 1)
      guard length <= limits.stringBytes else {
        throw BusValueError("a string of more than \(limits.stringBytes) bytes")
      }
      let text = String(cString: pointer)
      return code == "s" ? .string(text) : code == "o" ? .objectPath(text) : .signature(text)
    default:
      throw BusValueError("values of type '\(code)' are not taken")
    }
  }
}
