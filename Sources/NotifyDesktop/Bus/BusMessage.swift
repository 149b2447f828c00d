import CSystemd

/// An owned `sd_bus_message*` with typed appends and reads, so callers never touch the
/// C type codes. Variadic `sd_bus_message_append` is not callable from Swift; this builds
/// messages one basic value or container at a time instead.
final class BusMessage {
  /// The message; valid for the lifetime of this object.
  let handle: OpaquePointer

  /// Takes over one reference to `handle`.
  init(adopting handle: OpaquePointer) {
    self.handle = handle
  }

  /// Takes a new reference to a message owned elsewhere (a signal being dispatched).
  init(borrowing handle: OpaquePointer) {
    self.handle = sd_bus_message_ref(handle)
  }

  deinit {
    sd_bus_message_unref(handle)
  }

  /// The unique bus name of the connection that sent this message, when known.
  var sender: String? {
    sd_bus_message_get_sender(handle).map { String(cString: $0) }
  }

  // MARK: Writing

  /// Appends a string (`s`), or another string-like type (`o`, `g`) given its code.
  func append(_ value: String, as type: Character = "s") throws(BusFailure) {
    let result = value.withCString { sd_bus_message_append_basic(handle, BusMessage.code(type), $0) }
    try BusFailure.check(result, "appending a string")
  }

  /// Appends an unsigned 32-bit integer (`u`).
  func append(_ value: UInt32) throws(BusFailure) {
    var value = value
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code("u"), &value), "appending a uint32")
  }

  /// Appends a signed 32-bit integer (`i`).
  func append(_ value: Int32) throws(BusFailure) {
    var value = value
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code("i"), &value), "appending an int32")
  }

  /// Appends a signed 64-bit integer (`x`).
  func append(_ value: Int64) throws(BusFailure) {
    var value = value
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code("x"), &value), "appending an int64")
  }

  /// Appends a byte (`y`).
  func append(_ value: UInt8) throws(BusFailure) {
    var value = value
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code("y"), &value), "appending a byte")
  }

  /// Appends a boolean (`b`, a C int on the wire API).
  func append(_ value: Bool) throws(BusFailure) {
    var value: Int32 = value ? 1 : 0
    try BusFailure.check(
      sd_bus_message_append_basic(handle, BusMessage.code("b"), &value), "appending a boolean")
  }

  /// Appends a string array (`as`).
  func append(_ values: [String]) throws(BusFailure) {
    try container("a", "s") { () throws(BusFailure) in
      for value in values { try append(value) }
    }
  }

  /// Opens a container of `type` (`a`, `e`, `v`, `r`) with element signature `contents`,
  /// runs `body`, and closes it.
  func container(
    _ type: Character, _ contents: String, _ body: () throws(BusFailure) -> Void
  ) throws(BusFailure) {
    let opened = contents.withCString { sd_bus_message_open_container(handle, BusMessage.code(type), $0) }
    try BusFailure.check(opened, "opening a '\(type)\(contents)' container")
    try body()
    try BusFailure.check(sd_bus_message_close_container(handle), "closing a '\(type)\(contents)' container")
  }

  /// Appends one `{sv}` dictionary entry whose variant holds `value`.
  func appendEntry(_ key: String, _ value: BusVariant) throws(BusFailure) {
    try container("e", "sv") { () throws(BusFailure) in
      try append(key)
      try container("v", value.signature) { () throws(BusFailure) in
        switch value {
        case .byte(let v): try append(v)
        case .string(let v): try append(v)
        case .bool(let v): try append(v)
        case .int64(let v): try append(v)
        case .strings(let v): try append(v)
        }
      }
    }
  }

  // MARK: Reading

  /// Reads the next unsigned 32-bit integer.
  func readUInt32() throws(BusFailure) -> UInt32 {
    var value: UInt32 = 0
    try BusFailure.check(sd_bus_message_read_basic(handle, BusMessage.code("u"), &value), "reading a uint32")
    return value
  }

  /// Reads the next boolean.
  func readBool() throws(BusFailure) -> Bool {
    var value: Int32 = 0
    try BusFailure.check(sd_bus_message_read_basic(handle, BusMessage.code("b"), &value), "reading a boolean")
    return value != 0
  }

  /// Reads the next string.
  func readString() throws(BusFailure) -> String {
    var value: UnsafePointer<CChar>? = nil
    try BusFailure.check(sd_bus_message_read_basic(handle, BusMessage.code("s"), &value), "reading a string")
    return value.map { String(cString: $0) } ?? ""
  }

  /// Reads the next string array (`as`).
  func readStringArray() throws(BusFailure) -> [String] {
    try BusFailure.check(
      sd_bus_message_enter_container(handle, BusMessage.code("a"), "s"), "reading an array")
    var values: [String] = []
    while true {
      var value: UnsafePointer<CChar>? = nil
      let read = try BusFailure.check(
        sd_bus_message_read_basic(handle, BusMessage.code("s"), &value), "reading an array element")
      guard read > 0, let value else { break }
      values.append(String(cString: value))
    }
    try BusFailure.check(sd_bus_message_exit_container(handle), "leaving an array")
    return values
  }

  /// The C `char` for a D-Bus type code.
  static func code(_ type: Character) -> CChar {
    CChar(truncatingIfNeeded: type.asciiValue!)
  }
}

/// A value inside a D-Bus variant, limited to what notify sends.
enum BusVariant: Hashable, Sendable {
  case byte(UInt8)
  case string(String)
  case bool(Bool)
  case int64(Int64)
  /// An array of strings (`as`).
  case strings([String])

  /// The D-Bus signature of the value.
  var signature: String {
    switch self {
    case .byte: "y"
    case .string: "s"
    case .bool: "b"
    case .int64: "x"
    case .strings: "as"
    }
  }
}
