import CSystemd
import Foundation
import Glibc
import NotifyCore

/// logind on the system bus, as much of it as a firer needs: its announcements of sleep and
/// shutdown (`PrepareForSleep`, `PrepareForShutdown`) and *delay* inhibitors
/// (`Inhibit("sleep:shutdown", "notify", WHY, "delay")`), which make logind wait, up to its
/// `InhibitDelayMaxSec`, until the descriptor it hands out is closed.
///
/// One connection of its own, dispatched on the firer's sd-event loop (`attach`), used only
/// on that loop's thread. The bus is `DBUS_SYSTEM_BUS_ADDRESS` when set, as
/// `sd_bus_open_system` reads it (tests give a private bus with `python3-dbusmock`'s logind),
/// else the system's. Decisions are the caller's (`SleepGuard`); this only carries them out.
public final class Logind {
  /// What logind announced: a sleep or a shutdown beginning (`true`) or over (`false`:
  /// the machine resumed, or the shutdown was called off).
  public enum Announcement: Hashable, Sendable {
    case sleep(Bool)
    case shutdown(Bool)
  }

  /// logind's bus name, object and interface.
  public static let busName = "org.freedesktop.login1"
  static let objectPath = "/org/freedesktop/login1"
  static let interface = "org.freedesktop.login1.Manager"

  private let connection: BusConnection
  /// The inhibitor's descriptor while one is held.
  private var inhibitor: Int32 = -1
  /// The Inhibit call waiting for its answer.
  private var pending: OpaquePointer?
  private var matches: [OpaquePointer] = []
  private var attached = false
  /// Called for each announcement, on the loop's thread.
  public var onAnnouncement: ((Announcement) -> Void)?
  /// Called with logind's answer to `inhibit`: true when the inhibitor is held.
  public var onInhibitor: ((Bool) -> Void)?

  /// Connects to the system bus (or the bus at `address`); throws when there is none, or
  /// when logind is neither running nor activatable on it (a container, a machine without
  /// systemd).
  public init(address: String? = nil) throws(NotifyError) {
    do throws(BusFailure) {
      connection = try BusConnection.system(address: address, description: "notify-logind")
      let owned = try connection.call(
        try Self.nameCall(connection, "NameHasOwner"), timeout: .seconds(2), operation: "asking for logind")
      if try !owned.readBool() {
        let activatable = try connection.call(
          try connection.busCall("ListActivatableNames"), timeout: .seconds(2),
          operation: "asking for logind")
        guard try activatable.readStringArray().contains(Self.busName) else {
          throw BusFailure(
            operation: "finding logind", code: ENOENT, errorName: nil, errorMessage: "not on the system bus")
        }
      }
    } catch {
      throw NotifyError(.unavailable, "no logind: \(error)", fix: nil)
    }
  }

  deinit {
    detach()
    release()
  }

  private static func nameCall(_ connection: BusConnection, _ member: String) throws(BusFailure) -> BusMessage
  {
    let message = try connection.busCall(member)
    try message.append(busName)
    return message
  }

  /// Dispatches logind's signals and answers on `event` (an `sd_event *`) from now on.
  public func attach(to event: OpaquePointer) throws(NotifyError) {
    do throws(BusFailure) {
      let me = Unmanaged.passUnretained(self).toOpaque()
      for member in ["PrepareForSleep", "PrepareForShutdown"] {
        var slot: OpaquePointer?
        try BusFailure.check(
          sd_bus_match_signal(
            connection.handle, &slot, Self.busName, Self.objectPath, Self.interface, member,
            { message, userdata, _ in
              guard let message, let userdata else { return 0 }
              Unmanaged<Logind>.fromOpaque(userdata).takeUnretainedValue().announced(
                BusMessage(borrowing: message))
              return 0
            }, me),
          "subscribing to \(member)")
        if let slot { matches.append(slot) }
      }
      try BusFailure.check(sd_bus_attach_event(connection.handle, event, 0), "attaching to sd-event")
      attached = true
    } catch {
      throw NotifyError(.unavailable, "cannot follow logind: \(error)", fix: nil)
    }
  }

  /// Stops dispatching on the loop.
  public func detach() {
    for slot in matches { sd_bus_slot_unref(slot) }
    matches = []
    if let pending { sd_bus_slot_unref(pending) }
    pending = nil
    if attached { sd_bus_detach_event(connection.handle) }
    attached = false
  }

  /// Whether an inhibitor is held.
  public var holdsInhibitor: Bool { inhibitor >= 0 }

  /// Asks logind for a delay inhibitor, without waiting: the answer comes to `onInhibitor`
  /// as the loop dispatches it (logind delays a sleep for it from the moment it answers,
  /// even before this process reads the answer).
  public func inhibit(why: String) {
    do throws(BusFailure) {
      let message = try inhibitCall(why: why)
      var slot: OpaquePointer?
      try BusFailure.check(
        sd_bus_call_async(
          connection.handle, &slot, message.handle,
          { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<Logind>.fromOpaque(userdata).takeUnretainedValue().answered(reply)
            return 0
          }, Unmanaged.passUnretained(self).toOpaque(), 5_000_000),
        "calling Inhibit")
      pending = slot
    } catch {
      onInhibitor?(false)
    }
  }

  /// Asks logind for a delay inhibitor and waits for the answer, at most `timeout` (a
  /// hand-off is about to start). Returns whether it is held.
  public func inhibitNow(why: String, timeout: Duration = .milliseconds(250)) -> Bool {
    do throws(BusFailure) {
      let reply = try connection.call(
        try inhibitCall(why: why), timeout: timeout, operation: "calling Inhibit")
      return keep(reply.handle)
    } catch {
      return false
    }
  }

  private func inhibitCall(why: String) throws(BusFailure) -> BusMessage {
    let message = try connection.methodCall(
      destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: "Inhibit")
    try message.append("sleep:shutdown")
    try message.append("notify")
    try message.append(why)
    try message.append("delay")
    return message
  }

  /// Keeps a copy of the descriptor `reply` carries (the message owns its own); whether
  /// one was there.
  private func keep(_ reply: OpaquePointer) -> Bool {
    var fd: Int32 = -1
    guard sd_bus_message_read_basic(reply, BusMessage.code("h"), &fd) > 0, fd >= 0 else { return false }
    release()
    inhibitor = fcntl(fd, F_DUPFD_CLOEXEC, 3)
    return inhibitor >= 0
  }

  /// Closes the inhibitor's descriptor: logind goes on with what it waits for.
  public func release() {
    if inhibitor >= 0 { close(inhibitor) }
    inhibitor = -1
  }

  private func answered(_ reply: OpaquePointer) {
    if let pending { sd_bus_slot_unref(pending) }
    pending = nil
    guard sd_bus_message_is_method_error(reply, nil) == 0 else {
      onInhibitor?(false)
      return
    }
    onInhibitor?(keep(reply))
  }

  private func announced(_ message: BusMessage) {
    guard let member = sd_bus_message_get_member(message.handle).map({ String(cString: $0) }),
      let starting = try? message.readBool()
    else { return }
    onAnnouncement?(member == "PrepareForSleep" ? .sleep(starting) : .shutdown(starting))
  }
}
