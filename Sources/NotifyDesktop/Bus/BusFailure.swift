import CSystemd
import Foundation

/// A failed sd-bus operation: the negative errno libsystemd returned and, for method calls,
/// the D-Bus error the peer or the bus sent back.
///
/// Every negative return from libsystemd becomes one of these in `BusFailure.check`, and
/// nowhere else.
package struct BusFailure: Error, CustomStringConvertible {
  /// What notify was doing (`"calling Notify"`).
  var operation: String
  /// The positive errno value.
  var code: Int32
  /// The D-Bus error name, when there was one (`org.freedesktop.DBus.Error.ServiceUnknown`).
  var errorName: String?
  /// The D-Bus error message, when there was one.
  var errorMessage: String?

  /// True when the peer did not answer within the call timeout.
  var isTimeout: Bool { code == ETIMEDOUT || errorName == "org.freedesktop.DBus.Error.Timeout" }

  /// True when nobody owns the called name and none could be started for it now: no service
  /// file, or one whose program failed to start (a server that needs a display the session
  /// does not have yet, at login). Either way "no server yet", never "no desktop ever".
  var isNoServer: Bool {
    errorName == "org.freedesktop.DBus.Error.ServiceUnknown"
      || errorName == "org.freedesktop.DBus.Error.NameHasNoOwner"
      || errorName?.hasPrefix("org.freedesktop.DBus.Error.Spawn.") == true
      || errorName?.hasPrefix("org.freedesktop.systemd1.") == true
  }

  package var description: String {
    var text = "\(operation) failed: "
    if let errorName {
      text += errorName
      if let errorMessage, !errorMessage.isEmpty { text += " (\(errorMessage))" }
    } else {
      text += String(cString: strerror(code))
    }
    return text
  }

  /// Returns `result` when it is not negative, otherwise throws a failure for `operation`.
  /// When `error` is given, its name and message are copied and it is freed.
  @discardableResult
  static func check(
    _ result: Int32, _ operation: @autoclosure () -> String, error: UnsafeMutablePointer<sd_bus_error>? = nil
  ) throws(BusFailure) -> Int32 {
    defer { if let error { sd_bus_error_free(error) } }
    guard result < 0 else { return result }
    var failure = BusFailure(operation: operation(), code: -result)
    if let error, sd_bus_error_is_set(error) != 0 {
      failure.errorName = error.pointee.name.map { String(cString: $0) }
      failure.errorMessage = error.pointee.message.map { String(cString: $0) }
    }
    throw failure
  }
}
