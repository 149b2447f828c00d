import CSystemd
import Glibc
import NotifyCore

/// The one place where a libsystemd or libc failure becomes a Swift error: libsystemd
/// returns `-errno`, libc returns -1 and sets `errno`.
enum SystemdCall {
  /// Returns `result` when it is not negative, else throws naming `what` and the errno text.
  @discardableResult
  static func check(_ result: Int32, _ what: String) throws(NotifyError) -> Int32 {
    guard result < 0 else { return result }
    throw failure(what, errno: -result)
  }

  /// Returns `result` when it is not -1, else throws with the current `errno`.
  @discardableResult
  static func checkLibc(_ result: Int32, _ what: String) throws(NotifyError) -> Int32 {
    guard result == -1 else { return result }
    throw failure(what, errno: errno)
  }

  /// The error for a failed call.
  static func failure(_ what: String, errno code: Int32) -> NotifyError {
    NotifyError(
      .temporary, "\(what) failed: \(String(cString: strerror(code)))",
      fix: "check the system limits (open files, inotify watches) and try again")
  }
}
