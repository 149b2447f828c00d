import CSystemd
import Foundation

/// One open connection to the session bus. Closing is `sd_bus_flush_close_unref`, done
/// when the object goes away, so a reconnect is "drop this one, open another".
final class BusConnection {
  /// The `sd_bus*`; valid for the lifetime of this object.
  let handle: OpaquePointer

  /// Opens the user's session bus (`sd_bus_open_user`), or the session bus at `address`
  /// when one is given (tests, or a session other than this process's environment).
  init(address given: String?, description: String) throws(BusFailure) {
    // A program run with a file capability (`setcap cap_wake_alarm+ep`, to wake the
    // machine) runs in secure-execution mode, where sd-bus's `secure_getenv` sees no
    // `DBUS_SESSION_BUS_ADDRESS` nor `XDG_RUNTIME_DIR`: the address is read here instead.
    let address = given ?? Self.secureExecutionAddress()
    if HandshakeRelay.isNeeded, let path = HandshakeRelay.socketPath(address: address) {
      // Inside a Flatpak sandbox: through the relay that paces sd-bus's handshake.
      let fd = try HandshakeRelay.connect(path: path)
      var owned = false
      do {
        handle = try Self.started(description: description) { bus throws(BusFailure) in
          try BusFailure.check(sd_bus_set_fd(bus, fd, fd), "connecting to the session bus")
          owned = true
        }
      } catch {
        if !owned { close(fd) }
        throw error
      }
    } else if let address {
      handle = try Self.started(description: description) { bus throws(BusFailure) in
        try BusFailure.check(sd_bus_set_address(bus, address), "setting the session bus address")
      }
    } else {
      var bus: OpaquePointer? = nil
      try BusFailure.check(sd_bus_open_user(&bus), "connecting to the session bus")
      guard let bus else { throw BusFailure(operation: "connecting to the session bus", code: ENOMEM) }
      _ = sd_bus_set_description(bus, description)
      handle = bus
    }
  }

  /// The session bus's address for a process in secure-execution mode (`AT_SECURE`), from
  /// the environment as the user set it; nil otherwise (sd-bus reads it itself).
  static func secureExecutionAddress() -> String? {
    guard getauxval(UInt(AT_SECURE)) != 0 else { return nil }
    let environment = ProcessInfo.processInfo.environment
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
    return environment["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
  }

  /// The system bus (`sd_bus_open_system`: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the
  /// system's socket), or the bus at `address` standing in for it, for logind.
  static func system(address: String?, description: String) throws(BusFailure) -> BusConnection {
    if let address {
      return BusConnection(
        adopting: try started(description: description) { bus throws(BusFailure) in
          try BusFailure.check(sd_bus_set_address(bus, address), "setting the system bus address")
        })
    }
    var bus: OpaquePointer? = nil
    try BusFailure.check(sd_bus_open_system(&bus), "connecting to the system bus")
    guard let bus else { throw BusFailure(operation: "connecting to the system bus", code: ENOMEM) }
    _ = sd_bus_set_description(bus, description)
    return BusConnection(adopting: bus)
  }

  private init(adopting handle: OpaquePointer) {
    self.handle = handle
  }

  /// A new bus client connected by `connect` (an address or a descriptor), started; closed
  /// again when any step fails.
  private static func started(
    description: String, _ connect: (OpaquePointer) throws(BusFailure) -> Void
  ) throws(BusFailure) -> OpaquePointer {
    var bus: OpaquePointer? = nil
    try BusFailure.check(sd_bus_new(&bus), "creating a bus connection")
    guard let bus else { throw BusFailure(operation: "creating a bus connection", code: ENOMEM) }
    do {
      try connect(bus)
      try BusFailure.check(sd_bus_set_bus_client(bus, 1), "configuring the bus connection")
      // The same trust sd_bus_open_user gives the session bus: no per-method checks.
      try BusFailure.check(sd_bus_set_trusted(bus, 1), "configuring the bus connection")
      _ = sd_bus_set_description(bus, description)
      try BusFailure.check(sd_bus_start(bus), "connecting to the session bus")
    } catch {
      sd_bus_flush_close_unref(bus)
      throw error
    }
    return bus
  }

  deinit {
    sd_bus_flush_close_unref(handle)
  }

  /// False once the bus daemon went away or the connection failed.
  var isOpen: Bool { sd_bus_is_open(handle) > 0 }

  /// The bus's id (`org.freedesktop.DBus.GetId`, 32 hex digits): another bus (a new login)
  /// has another.
  var busID: String? {
    var id = sd_id128_t()
    guard sd_bus_get_bus_id(handle, &id) >= 0 else { return nil }
    return withUnsafeBytes(of: id.bytes) { bytes in
      bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
  }

  /// This connection's unique name (`:1.42`).
  var uniqueName: String? {
    var name: UnsafePointer<CChar>? = nil
    guard sd_bus_get_unique_name(handle, &name) >= 0, let name else { return nil }
    return String(cString: name)
  }

  /// A new method call message.
  func methodCall(
    destination: String, path: String, interface: String, member: String
  ) throws(BusFailure) -> BusMessage {
    var message: OpaquePointer? = nil
    try BusFailure.check(
      sd_bus_message_new_method_call(handle, &message, destination, path, interface, member),
      "creating a \(member) call")
    return BusMessage(adopting: message!)
  }

  /// A new call of `member` on the bus itself (`org.freedesktop.DBus`: `NameHasOwner`,
  /// `StartServiceByName`, `ListNames`, ...).
  func busCall(_ member: String) throws(BusFailure) -> BusMessage {
    try methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: member)
  }

  /// A new signal message.
  func signal(path: String, interface: String, member: String) throws(BusFailure) -> BusMessage {
    var message: OpaquePointer? = nil
    try BusFailure.check(
      sd_bus_message_new_signal(handle, &message, path, interface, member), "creating a \(member) signal")
    return BusMessage(adopting: message!)
  }

  /// Sends `message` and waits at most `timeout` for the reply.
  func call(_ message: BusMessage, timeout: Duration, operation: String) throws(BusFailure) -> BusMessage {
    var error = notify_bus_error_null()
    var reply: OpaquePointer? = nil
    let result = sd_bus_call(handle, message.handle, timeout.microseconds, &error, &reply)
    try BusFailure.check(result, operation, error: &error)
    return BusMessage(adopting: reply!)
  }

  /// Queues `message` and writes it out before returning.
  func send(_ message: BusMessage, operation: String) throws(BusFailure) {
    try BusFailure.check(sd_bus_send(handle, message.handle, nil), operation)
    try BusFailure.check(sd_bus_flush(handle), operation)
  }
}

extension Duration {
  /// Whole microseconds, at least 1 (sd-bus treats 0 as "use the default timeout").
  var microseconds: UInt64 {
    let (seconds, attoseconds) = components
    let total = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    return UInt64(max(1, total))
  }
}
