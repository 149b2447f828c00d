import CSystemd
import Foundation
import NotifyCore
import Synchronization

/// Hears the scheduler's signals for one app (`Delivered`, `Activated`, `Dismissed`): a
/// connection of its own that called `Subscribe`, since the service sends each signal to the
/// connections that subscribed (unicast), dispatched on a thread of its own that only waits
/// for the bus (no timer, no polling). Each signal goes to `onSignal` on that thread as its
/// member and arguments.
///
/// When the name gets a new owner (`NameOwnerChanged`: the daemon restarted, or was started
/// again by activation) it subscribes again on the same connection, since the new daemon
/// knows nothing of the old one's subscriptions: the app keeps hearing its clicks.
///
/// The thread owns the connection once started; `stop()` (or going away) shuts the
/// connection's socket, which wakes the thread, and the thread closes the connection. A
/// bus that goes away ends it too.
package final class SchedulerListener: Sendable {
  /// The connection's socket while the thread runs; nil once it ended. Shared by design:
  /// the thread clears it before it closes the socket, `stop()` shuts the socket only while
  /// it is set, so it never shuts a number the process reused.
  private final class Socket: Sendable {
    let number: Mutex<Int32?>
    init(_ number: Int32) { self.number = Mutex(number) }
  }
  private let socket: Socket

  /// Connects, subscribes to `app` (`""`: the sandboxed caller's own) and starts the
  /// thread. Throws what `Subscribe` failed with.
  package init(
    address: String? = nil, app: String, timeout: Duration = .seconds(5),
    onSignal: @escaping @Sendable (_ member: String, _ values: [BusValue]) -> Void
  ) throws(SchedulerCallFailure) {
    let client = try SchedulerConnection(address: address, timeout: timeout)
    let bus = client.connection
    let handler = Handler(onSignal, client: client, app: app)
    do throws(BusFailure) {
      try BusFailure.check(
        sd_bus_match_signal(
          bus.handle, nil, SchedulerInterface.name, SchedulerInterface.path, SchedulerInterface.name, nil,
          { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let handler = Unmanaged<Handler>.fromOpaque(userdata).takeUnretainedValue()
            handler.handle(BusMessage(borrowing: message))
            return 0
          }, Unmanaged.passUnretained(handler).toOpaque()),
        "subscribing to the scheduler's signals")
      // The bus's NameOwnerChanged for the scheduler's name only (arg0), on the same thread.
      try BusFailure.check(
        sd_bus_add_match(
          bus.handle, nil,
          "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(SchedulerInterface.name)'",
          { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let handler = Unmanaged<Handler>.fromOpaque(userdata).takeUnretainedValue()
            handler.ownerChanged(BusMessage(borrowing: message))
            return 0
          }, Unmanaged.passUnretained(handler).toOpaque()),
        "watching the scheduler's name")
    } catch {
      throw SchedulerCallFailure(error)
    }
    _ = try client.call("Subscribe", [.string(app)])
    let socket = Socket(sd_bus_get_fd(bus.handle))
    self.socket = socket
    // The thread keeps the connection and the handler alive until it ends.
    nonisolated(unsafe) let owned = (client, handler)
    let thread = Thread {
      let bus = owned.0.connection.handle
      while true {
        let processed = sd_bus_process(bus, nil)
        if processed < 0 { break }
        if processed > 0 { continue }
        if sd_bus_wait(bus, UInt64.max) < 0 { break }
      }
      socket.number.withLock { $0 = nil }
      withExtendedLifetime(owned) {}
    }
    thread.name = "notify.scheduler-signals"
    thread.start()
  }

  deinit { stop() }

  /// Ends the subscription: the thread wakes, closes the connection and ends.
  package func stop() {
    socket.number.withLock { number in
      if let number { shutdown(number, Int32(SHUT_RDWR)) }
    }
  }

  /// The signal callbacks' target; reads each signal within bounds. Used on the listener's
  /// thread only (the callbacks run inside its `sd_bus_process`).
  private final class Handler {
    let onSignal: @Sendable (String, [BusValue]) -> Void
    /// The connection, unowned: the thread owns it, and the handler lives no longer.
    unowned let client: SchedulerConnection
    let app: String

    init(
      _ onSignal: @escaping @Sendable (String, [BusValue]) -> Void, client: SchedulerConnection, app: String
    ) {
      self.onSignal = onSignal
      self.client = client
      self.app = app
    }

    /// `NameOwnerChanged(name, old, new)` of the scheduler's name: with a new owner,
    /// subscribe again (the daemon registers its object before it takes the name, so the
    /// call finds it). A failure is left as it is: the next owner change tries again.
    func ownerChanged(_ message: BusMessage) {
      guard
        let values = try? message.readValues(
          limits: .init(stringBytes: 4096, arrayCount: 4, totalValues: 8, depth: 2)),
        values.count == 3, case .string(let owner) = values[2], !owner.isEmpty
      else { return }
      _ = try? client.call("Subscribe", [.string(app)])
    }

    func handle(_ message: BusMessage) {
      guard let member = sd_bus_message_get_member(message.handle).map({ String(cString: $0) }),
        let values = try? message.readValues(
          limits: .init(stringBytes: 1 << 20, arrayCount: 4096, totalValues: 65_536, depth: 32))
      else { return }
      onSignal(member, values)
    }
  }
}
