/// Any D-Bus value, for a service that reads what callers send and answers with values of
/// its own (`BusCall`). Narrower integers arrive widened (`n` as `int32`, `q` as `uint32`);
/// file descriptors are refused when read.
package indirect enum BusValue: Hashable, Sendable {
  case byte(UInt8)
  case bool(Bool)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// A file descriptor (`h`): one the message carries, valid while it lives.
  case unixFD(Int32)
  case variant(BusValue)
  /// An array of values of type `element` (a signature such as `s` or `{sv}`), so that an
  /// empty one still has a type.
  case array(element: String, [BusValue])
  case dictEntry(BusValue, BusValue)
  case structure([BusValue])

  /// The value's D-Bus signature (`a{sv}`, `(ss)`, ...).
  package var signature: String {
    switch self {
    case .byte: "y"
    case .bool: "b"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .unixFD: "h"
    case .variant: "v"
    case .array(let element, _): "a" + element
    case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
    case .structure(let members): "(" + members.map(\.signature).joined() + ")"
    }
  }

  /// An `a{sv}` of these entries, in this order.
  package static func vardict(_ entries: [(String, BusValue)]) -> BusValue {
    .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
  }

  /// An `as`.
  package static func strings(_ values: [String]) -> BusValue {
    .array(element: "s", values.map(BusValue.string))
  }

  /// The entries of an `a{sv}` (variants unwrapped), nil for any other value. A key given
  /// twice keeps its last value.
  package var vardictEntries: [(key: String, value: BusValue)]? {
    guard case .array("{sv}", let entries) = self else { return nil }
    return entries.compactMap { entry in
      guard case .dictEntry(.string(let key), .variant(let value)) = entry else { return nil }
      return (key, value)
    }
  }
}
