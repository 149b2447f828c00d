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
    let handler = Handler(onSignal)
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

  /// The signal callback's target; reads each signal within bounds.
  private final class Handler {
    let onSignal: @Sendable (String, [BusValue]) -> Void
    init(_ onSignal: @escaping @Sendable (String, [BusValue]) -> Void) { self.onSignal = onSignal }

    func handle(_ message: BusMessage) {
      guard let member = sd_bus_message_get_member(message.handle).map({ String(cString: $0) }),
        let values = try? message.readValues(
          limits: .init(stringBytes: 1 << 20, arrayCount: 4096, totalValues: 65_536, depth: 32))
      else { return }
      onSignal(member, values)
    }
  }
}
