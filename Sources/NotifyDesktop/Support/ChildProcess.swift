import Glibc
import NotifyCore

/// A child process started with `posix_spawnp`, with an empty signal mask and default signal
/// dispositions, and reaped with `waitpid`.
///
/// Foundation's `Process` passes on the spawning thread's blocked signals (a dispatch worker
/// blocks almost all of them), so daemons it starts ignore SIGTERM, and its
/// `waitUntilExit` can hang where SIGCHLD is blocked. This avoids both.
struct ChildProcess {
  /// The child's process id.
  let pid: pid_t

  /// Starts `arguments` (looked up in PATH) with `environment`, stdin from /dev/null and
  /// stdout / stderr appended to the given files (or /dev/null).
  static func spawn(
    _ arguments: [String], environment: [String: String], output: String? = nil, errors: String? = nil
  ) throws(NotifyError) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw NotifyError(
        .unavailable, "cannot start \(arguments[0]): \(String(cString: strerror(result)))",
        fix: "check that it is installed and in PATH")
    }
    return ChildProcess(pid: pid)
  }

  /// Waits for the child to exit; its exit status, or 128 + the signal that ended it.
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return -1 }
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// Sends `signal` to the child.
  func send(_ signal: Int32 = SIGTERM) {
    kill(pid, signal)
  }
}
