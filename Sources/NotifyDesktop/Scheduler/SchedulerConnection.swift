import CSystemd
import NotifyCore

/// A client's connection to notify's scheduler (`io.github.notify.Scheduler1`,
/// docs/dbus.md): method calls with `BusValue` arguments and replies, each failure the
/// D-Bus error the service or the bus sent. The library's `SchedulerClient` turns values
/// and errors into its own types; this type knows only the bus.
///
/// Not thread-safe: one owner uses it (`SchedulerClient` runs every call on one serial
/// queue).
package final class SchedulerConnection {
  let connection: BusConnection
  /// How long a call may wait for its reply.
  package let timeout: Duration

  /// Connects to the session bus (`address`, else the process's session bus).
  package init(address: String? = nil, timeout: Duration = .seconds(5)) throws(SchedulerCallFailure) {
    self.timeout = timeout
    do throws(BusFailure) {
      connection = try BusConnection(address: address, description: "notify-scheduler-client")
    } catch {
      throw SchedulerCallFailure(error)
    }
  }

  /// Calls `member` of the scheduler with `arguments`; the reply's values, read within
  /// `limits`.
  package func call(
    _ member: String, _ arguments: [BusValue],
    limits: BusReadLimits = .init(stringBytes: 1 << 20, arrayCount: 4096, totalValues: 1 << 20, depth: 32)
  ) throws(SchedulerCallFailure) -> [BusValue] {
    do throws(BusFailure) {
      let message = try connection.methodCall(
        destination: SchedulerInterface.name, path: SchedulerInterface.path,
        interface: SchedulerInterface.name,
        member: member)
      for argument in arguments { try message.append(argument) }
      let reply = try connection.call(message, timeout: timeout, operation: "calling \(member)")
      do {
        return try reply.readValues(limits: limits)
      } catch {
        throw BusFailure(operation: "reading the reply to \(member) (\(error))", code: EBADMSG)
      }
    } catch {
      throw SchedulerCallFailure(error)
    }
  }

  /// True when the scheduler can be reached on this bus: its name has an owner, or the
  /// bus can start one (`ListActivatableNames`, a D-Bus activation file).
  package func serviceReachable() -> Bool {
    do throws(BusFailure) {
      let owned = try connection.busCall("NameHasOwner")
      try owned.append(SchedulerInterface.name)
      if try connection.call(owned, timeout: timeout, operation: "calling NameHasOwner").readBool() {
        return true
      }
      let activatable = try connection.busCall("ListActivatableNames")
      return try connection.call(activatable, timeout: timeout, operation: "calling ListActivatableNames")
        .readStringArray().contains(SchedulerInterface.name)
    } catch {
      return false
    }
  }
}

/// A call to the scheduler that failed: the D-Bus error the service replied with
/// (`io.github.notify.Scheduler1.Error.LimitReached`, ...) or that the bus gave
/// (`org.freedesktop.DBus.Error.ServiceUnknown`), or no name when the connection itself
/// failed.
package struct SchedulerCallFailure: Error, CustomStringConvertible {
  /// The D-Bus error name, nil when there was none (the connection failed).
  package var errorName: String?
  /// The error's message (the service's text), else what failed.
  package var message: String
  /// True when no reply came in time.
  package var isTimeout: Bool

  /// A failure with this error name and message (tests).
  package init(errorName: String?, message: String, isTimeout: Bool) {
    self.errorName = errorName
    self.message = message
    self.isTimeout = isTimeout
  }

  init(_ failure: BusFailure) {
    errorName = failure.errorName
    message = failure.errorMessage.flatMap { $0.isEmpty ? nil : $0 } ?? failure.description
    isTimeout = failure.isTimeout
  }

  /// The scheduler's error (`LimitReached`), nil for errors of the bus and names the
  /// interface does not declare.
  package var schedulerError: SchedulerInterface.ErrorName? {
    guard let errorName, errorName.hasPrefix(SchedulerInterface.errorPrefix) else { return nil }
    return SchedulerInterface.ErrorName(
      rawValue: String(errorName.dropFirst(SchedulerInterface.errorPrefix.count)))
  }

  package var description: String { message }
}
