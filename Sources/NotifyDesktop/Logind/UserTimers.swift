import CSystemd
import Foundation
import NotifyCore

/// Waking timers held by the user's systemd manager for a firer that cannot hold one
/// itself (`WakeRoute.userTimer`: `notify fire-due`, which exits, or a daemon without
/// CAP_WAKE_ALARM whose manager has it): a transient `notify-wake-KEY-EPOCH.timer` with
/// `WakeSystem=true` that starts `notify fire-due` (a oneshot service beside it) at the
/// instant. KEY names the store (one set of timers per store, whoever arms them); EPOCH the
/// instant, so that arming the same instant again is nothing to do and a new instant is a
/// new timer, the others stopped.
public struct UserTimers {
  /// The store's key in the units' names.
  public let key: String
  private let address: String?

  /// Timers for the store at `storePath`, on the session bus (or the one at `address`).
  public init(storePath: String, address: String? = nil) {
    var hash: UInt32 = 2_166_136_261
    for byte in storePath.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    key = String(hash, radix: 16)
    self.address = address
  }

  /// The timer's name for `instant`.
  public func unitName(for instant: Date) -> String {
    "notify-wake-\(key)-\(Int64(instant.timeIntervalSince1970.rounded(.down))).timer"
  }

  /// Arms a waking timer for `instant` that runs `command` (absolute program path first),
  /// and stops the store's others; `instant` nil stops them all.
  public func arm(at instant: Date?, command: [String]) throws(NotifyError) {
    do throws(BusFailure) {
      let connection = try BusConnection(address: address, description: "notify-wake")
      let wanted = instant.map(unitName(for:))
      let existing = try units(on: connection)
      for name in existing where name != wanted { try stop(name, on: connection) }
      guard let instant, let wanted, !existing.contains(wanted) else { return }
      try start(wanted, at: instant, command: command, on: connection)
    } catch {
      throw NotifyError(
        .unavailable, "the user's systemd manager did not keep a waking timer: \(error)", fix: nil)
    }
  }

  /// The store's waking timers the manager has loaded.
  private func units(on connection: BusConnection) throws(BusFailure) -> [String] {
    let message = try systemd(connection, "ListUnitsByPatterns")
    try message.append([String]())
    try message.append(["notify-wake-\(key)-*.timer"])
    let reply = try connection.call(message, timeout: .seconds(5), operation: "listing the waking timers")
    var names: [String] = []
    try BusFailure.check(
      sd_bus_message_enter_container(reply.handle, BusMessage.code("a"), "(ssssssouso)"), "reading the units")
    while try BusFailure.check(
      sd_bus_message_enter_container(reply.handle, BusMessage.code("r"), "ssssssouso"), "reading a unit") > 0
    {
      names.append(try reply.readString())
      try BusFailure.check(sd_bus_message_skip(reply.handle, "sssssouso"), "reading a unit")
      try BusFailure.check(sd_bus_message_exit_container(reply.handle), "reading a unit")
    }
    return names
  }

  /// Stops `name` and forgets it if it failed (a transient unit goes once inactive).
  private func stop(_ name: String, on connection: BusConnection) throws(BusFailure) {
    let message = try systemd(connection, "StopUnit")
    try message.append(name)
    try message.append("replace")
    _ = try connection.call(message, timeout: .seconds(5), operation: "stopping \(name)")
    let reset = try systemd(connection, "ResetFailedUnit")
    try reset.append(name)
    _ = try? connection.call(reset, timeout: .seconds(5), operation: "forgetting \(name)")
  }

  private func start(_ name: String, at instant: Date, command: [String], on connection: BusConnection)
    throws(BusFailure)
  {
    let message = try systemd(connection, "StartTransientUnit")
    try message.append(name)
    try message.append("replace")
    func property(_ name: String, _ value: BusVariant) throws(BusFailure) {
      try message.container("r", "sv") { () throws(BusFailure) in
        try message.append(name)
        try message.container("v", value.signature) { () throws(BusFailure) in
          switch value {
          case .string(let v): try message.append(v)
          case .bool(let v): try message.append(v)
          case .byte(let v): try message.append(v)
          case .int64(let v): try message.append(v)
          case .strings(let v): try message.append(v)
          }
        }
      }
    }
    try message.container("a", "(sv)") { () throws(BusFailure) in
      try property("Description", .string("notify: wake the machine for a notification"))
      try property("OnCalendar", .string(Self.calendar(instant)))
      try property("WakeSystem", .bool(true))
      try property("RemainAfterElapse", .bool(false))
      try message.container("r", "sv") { () throws(BusFailure) in
        try message.append("AccuracyUSec")
        try message.container("v", "t") { () throws(BusFailure) in
          var value: UInt64 = 1_000_000
          try BusFailure.check(
            sd_bus_message_append_basic(message.handle, BusMessage.code("t"), &value), "appending a uint64")
        }
      }
    }
    let service = String(name.dropLast(".timer".count)) + ".service"
    try message.container("a", "(sa(sv))") { () throws(BusFailure) in
      try message.container("r", "sa(sv)") { () throws(BusFailure) in
        try message.append(service)
        try message.container("a", "(sv)") { () throws(BusFailure) in
          try property("Description", .string("notify: deliver what is due"))
          try property("Type", .string("oneshot"))
          try property("CollectMode", .string("inactive-or-failed"))
          try message.container("r", "sv") { () throws(BusFailure) in
            try message.append("ExecStart")
            try message.container("v", "a(sasb)") { () throws(BusFailure) in
              try message.container("a", "(sasb)") { () throws(BusFailure) in
                try message.container("r", "sasb") { () throws(BusFailure) in
                  try message.append(command[0])
                  try message.append(command)
                  try message.append(false)
                }
              }
            }
          }
        }
      }
    }
    _ = try connection.call(message, timeout: .seconds(5), operation: "starting \(name)")
  }

  /// `instant` as a systemd calendar event (whole seconds, UTC): `2026-11-22 06:59:00 UTC`.
  static func calendar(_ instant: Date) -> String {
    let text = RFC3339.string(from: Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.down)))
    return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
  }

  private func systemd(_ connection: BusConnection, _ member: String) throws(BusFailure) -> BusMessage {
    try connection.methodCall(
      destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
      interface: "org.freedesktop.systemd1.Manager", member: member)
  }
}
