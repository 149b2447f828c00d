import Glibc

/// The signals that stop a firing command (`notify daemon`, `notify fire-due`): SIGTERM (a
/// service manager's stop), SIGINT (Ctrl-C) and SIGHUP (the terminal closed).
///
/// A command blocks them first thing, before any thread exists, so that none of them kills
/// the process from whatever thread it lands on: they stay pending until the firer looks.
/// A busy firer looks between hand-offs (`pending`, one `sigpending(2)`), so a stop does not
/// wait for a whole burst; the daemon's loop then takes the signal from its signalfd.
public enum StopSignals {
  /// SIGTERM, SIGINT, SIGHUP.
  public static let all: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// Blocks them for the calling thread and every thread it starts later.
  public static func block() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in all { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// The first of them waiting to be taken (blocked and sent), or nil.
  public static func pending() -> Int32? {
    var set = sigset_t()
    sigemptyset(&set)
    guard sigpending(&set) == 0 else { return nil }
    return all.first { sigismember(&set, $0) == 1 }
  }

  /// `SIGTERM`, `SIGINT`, `SIGHUP`, or `signal N`.
  public static func name(_ signal: Int32) -> String {
    switch signal {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGHUP: "SIGHUP"
    case SIGPIPE: "SIGPIPE"
    default: "signal \(signal)"
    }
  }
}
