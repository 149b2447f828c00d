/// Whether the process at a connection's pid is the one that made the connection: what
/// makes the sandbox read at `/proc/PID/root` the caller's. A pid is recorded by the bus
/// when the connection is made; that process may exit, hand its connection to a child, and
/// see its pid taken by another (unsandboxed) process.
enum ProcessOrigin: Equatable, Sendable {
  /// The bus gave a pidfd of the process that connected: whether it still ran after its
  /// root was read (then what was read was its own).
  case pidfd(alive: Bool)
  /// No pidfd: when the process now at the pid started, and a time by which the bus had
  /// shown the connection (`ConnectionArrivals`), both nanoseconds of `CLOCK_BOOTTIME`.
  case started(at: UInt64, connectionBy: UInt64)
  /// Neither could be read: why.
  case unknown(String)

  /// Why the process at the connection's pid is not taken for the one that connected, or
  /// nil when it is. A process that started after the connection appeared is another one.
  func refusal(pid: Int32) -> String? {
    switch self {
    case .pidfd(alive: true):
      return nil
    case .pidfd(alive: false):
      return
        "the process that made its connection (pid \(pid)) has exited, so notify cannot tell whose it is now"
    case .started(let start, let appeared):
      guard start > appeared else { return nil }
      return
        "the process now at its connection's pid \(pid) started after the connection was made: the process that made it has exited and its pid was reused"
    case .unknown(let why):
      return why
    }
  }
}
