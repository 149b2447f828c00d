import CSystemd
import Glibc

/// A service's end of the session bus: one connection that owns a well-known name, serves
/// one object path by calling `handler` with every method call to it, and sends signals
/// to one connection at a time. It dispatches on an sd-event loop it is attached to, on
/// that loop's thread only: the loop's thread is its one owner.
package final class BusServer {
  private let connection: BusConnection
  private var objectSlot: OpaquePointer?
  /// One match per watched connection (`watch`): the daemon wakes for those leaving
  /// only, not for every connection that comes and goes on the bus.
  private var watches: [String: OpaquePointer] = [:]
  private let handler: (BusCall) -> Void
  /// Called with the unique name of a watched connection (`watch`) that left the bus.
  package var onDisconnect: ((String) -> Void)?
  private var onArrival: ((String) -> Void)?
  private var arrivalSlot: OpaquePointer?
  /// The object path served.
  package let path: String

  /// Connects (to `address`, else the user's session bus), serves `path` and takes `name`;
  /// fails (`EEXIST`) when another connection owns it already.
  package init(address: String?, name: String, path: String, handler: @escaping (BusCall) -> Void)
    throws(BusFailure)
  {
    connection = try BusConnection(address: address, description: name)
    self.handler = handler
    self.path = path
    let me = Unmanaged.passUnretained(self).toOpaque()
    try BusFailure.check(
      sd_bus_add_object(
        connection.handle, &objectSlot, path,
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let server = Unmanaged<BusServer>.fromOpaque(userdata).takeUnretainedValue()
          server.handler(BusCall(message: BusMessage(borrowing: message)))
          return 1
        }, me),
      "serving \(path)")
    // No queueing behind another owner: a queued connection is woken whenever the name
    // changes hands, and an idle daemon wakes for nothing (BENCHMARKS.md, "Idle cost").
    try BusFailure.check(sd_bus_request_name(connection.handle, name, 0), "requesting \(name)")
  }

  deinit {
    sd_bus_slot_unref(objectSlot)
    sd_bus_slot_unref(arrivalSlot)
    for slot in watches.values { sd_bus_slot_unref(slot) }
  }

  /// Calls `onDisconnect` once the connection `name` (`:1.42`) leaves the bus; at once
  /// when it has left already.
  package func watch(_ name: String) throws(BusFailure) {
    guard watches[name] == nil, name.hasPrefix(":") else { return }
    var slot: OpaquePointer? = nil
    let rule =
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)',arg2=''"
    try BusFailure.check(
      sd_bus_add_match(
        connection.handle, &slot, rule,
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let server = Unmanaged<BusServer>.fromOpaque(userdata).takeUnretainedValue()
          guard let name = try? BusMessage(borrowing: message).readString() else { return 0 }
          server.left(name)
          return 0
        }, Unmanaged.passUnretained(self).toOpaque()),
      "watching \(name)")
    watches[name] = slot
    // It may have left before the match was in place.
    let question = try connection.busCall("NameHasOwner")
    try question.append(name)
    let answer = try connection.call(
      question, timeout: .seconds(5), operation: "asking whether \(name) is on the bus")
    if try !answer.readBool() { left(name) }
  }

  private func left(_ name: String) {
    guard let slot = watches.removeValue(forKey: name) else { return }
    sd_bus_slot_unref(slot)
    onDisconnect?(name)
  }

  /// Calls `arrived` with the unique name of every connection that joins the bus from now
  /// on (`NameOwnerChanged` with no old owner), on the loop's thread, before any message it
  /// sends is dispatched here: what tells when a caller's connection appeared. The daemon
  /// wakes once for each new connection on the bus.
  package func watchArrivals(_ arrived: @escaping (String) -> Void) throws(BusFailure) {
    onArrival = arrived
    let rule =
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg1=''"
    try BusFailure.check(
      sd_bus_add_match(
        connection.handle, &arrivalSlot, rule,
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let server = Unmanaged<BusServer>.fromOpaque(userdata).takeUnretainedValue()
          guard let name = try? BusMessage(borrowing: message).readString(), name.hasPrefix(":") else {
            return 0
          }
          server.onArrival?(name)
          return 0
        }, Unmanaged.passUnretained(self).toOpaque()),
      "watching connections arrive")
  }

  /// What the bus daemon vouches for of the connection `name` (`GetConnectionCredentials`):
  /// its user, its process, and a pidfd of that process where the bus gives one
  /// (`ProcessFD`: dbus 1.16, dbus-broker), which the caller owns and closes.
  package func credentials(of name: String) -> PeerCredentials {
    var found = PeerCredentials()
    guard let question = try? connection.busCall("GetConnectionCredentials"),
      (try? question.append(name)) != nil,
      let answer = try? connection.call(question, timeout: .seconds(5), operation: "asking who \(name) is"),
      let values = try? answer.readValues(
        limits: BusReadLimits(stringBytes: 4096, arrayCount: 256, totalValues: 1024, depth: 4)),
      let entries = values.first?.vardictEntries
    else { return found }
    for (key, value) in entries {
      switch (key, value) {
      case ("UnixUserID", .uint32(let uid)): found.uid = uid
      case ("ProcessID", .uint32(let pid)): found.pid = Int32(bitPattern: pid)
      case ("ProcessFD", .unixFD(let fd)):
        // (the reply owns its descriptor: a copy outlives it)
        let copy = fcntl(fd, 1030, 3)  // F_DUPFD_CLOEXEC, which Glibc does not export to Swift
        if copy >= 0 { found.processFD = copy }
      default: break
      }
    }
    return found
  }

  /// This connection's unique name.
  package var uniqueName: String? { connection.uniqueName }

  /// Dispatches on `event` (an `sd_event *`) from now on.
  package func attach(to event: OpaquePointer, priority: Int32) throws(BusFailure) {
    try BusFailure.check(
      sd_bus_attach_event(connection.handle, event, priority), "attaching the bus to the loop")
  }

  /// Stops dispatching on the loop.
  package func detach() {
    _ = sd_bus_flush(connection.handle)
    _ = sd_bus_detach_event(connection.handle)
  }

  /// Sends the signal `member` of `interface` with `values` from the served path to the
  /// connection `destination` only (unicast): other connections never see it, whatever
  /// match rules they add.
  package func emit(_ member: String, interface: String, to destination: String, values: [BusValue])
    throws(BusFailure)
  {
    let signal = try connection.signal(path: path, interface: interface, member: member)
    try BusFailure.check(
      sd_bus_message_set_destination(signal.handle, destination), "addressing the \(member) signal")
    for value in values { try signal.append(value) }
    try BusFailure.check(sd_bus_send(connection.handle, signal.handle, nil), "sending the \(member) signal")
  }

  /// Releases the name and flushes what is queued (when the daemon stops).
  package func close(name: String) {
    _ = sd_bus_release_name(connection.handle, name)
    _ = sd_bus_flush(connection.handle)
  }
}

/// What the bus daemon says of a connection (`BusServer.credentials(of:)`).
package struct PeerCredentials: Sendable {
  /// Its process id, as the bus recorded it when the connection was made.
  package var pid: Int32?
  /// Its user.
  package var uid: UInt32?
  /// A pidfd of the process that made the connection, owned by the holder; nil where the
  /// bus gives none (dbus-daemon before 1.16).
  package var processFD: Int32?

  package init(pid: Int32? = nil, uid: UInt32? = nil, processFD: Int32? = nil) {
    self.pid = pid
    self.uid = uid
    self.processFD = processFD
  }
}
