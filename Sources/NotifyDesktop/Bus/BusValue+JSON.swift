import NotifyCore

extension BusValue {
  /// The D-Bus form of a JSON value: objects as `a{sv}` (null members left out), arrays
  /// as `av`, integers as `x`, numbers as `d`. Nil for `null`.
  package init?(json: JSONValue) {
    switch json {
    case .null: return nil
    case .bool(let value): self = .bool(value)
    case .int(let value): self = .int64(value)
    case .double(let value): self = .double(value)
    case .string(let value): self = .string(value)
    case .array(let values):
      self = .array(element: "v", values.compactMap { BusValue(json: $0).map(BusValue.variant) })
    case .object(let members):
      self = .vardict(
        members.keys.sorted().compactMap { key in BusValue(json: members[key]!).map { (key, $0) } })
    }
  }

  /// The `a{sv}` of a JSON record, in its order, null members left out.
  package static func vardict(_ record: JSONRecord) -> BusValue {
    .vardict(record.members.compactMap { member in BusValue(json: member.value).map { (member.key, $0) } })
  }

  /// The JSON value of a caller's value (`userInfo`): strings, booleans, integers, finite
  /// doubles, arrays and `a{sv}`/`a{s*}` objects. Nil for what JSON cannot hold (a
  /// structure, a `t` above `Int64.max`, a non-finite double).
  package var json: JSONValue? {
    switch self {
    case .byte(let v): return .int(Int64(v))
    case .bool(let v): return .bool(v)
    case .int32(let v): return .int(Int64(v))
    case .uint32(let v): return .int(Int64(v))
    case .int64(let v): return .int(v)
    case .uint64(let v): return v <= UInt64(Int64.max) ? .int(Int64(v)) : nil
    case .double(let v): return v.isFinite ? .double(v) : nil
    case .string(let v), .objectPath(let v), .signature(let v): return .string(v)
    case .variant(let inner): return inner.json
    case .unixFD: return nil
    case .array(let element, let values) where element.hasPrefix("{s"):
      var members: [String: JSONValue] = [:]
      for value in values {
        guard case .dictEntry(.string(let key), let inner) = value, let json = inner.json else { return nil }
        members[key] = json
      }
      return .object(members)
    case .array(_, let values):
      var items: [JSONValue] = []
      for value in values {
        guard let json = value.json else { return nil }
        items.append(json)
      }
      return .array(items)
    case .dictEntry, .structure: return nil
    }
  }
}
