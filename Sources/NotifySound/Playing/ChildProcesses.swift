import Foundation
import Synchronization

/// Starts helper processes without waiting for them and reaps them later with
/// `waitpid(WNOHANG)`, so playing a sound never blocks delivery and never leaves
/// zombies behind for long (no SIGCHLD handler needed, which would clash with the
/// host's own signal handling).
enum ChildProcesses {
  /// Children started and not yet reaped.
  private static let running = Mutex<Set<pid_t>>([])

  /// Children started and not yet known to have exited.
  static var count: Int {
    reap()
    return running.withLock { $0.count }
  }

  /// Reaps every child that has exited.
  static func reap() {
    running.withLock { pids in
      for pid in pids {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result == -1 && errno == ECHILD) { pids.remove(pid) }
      }
    }
  }

  /// Starts `arguments[0]` (an absolute path) with stdin, stdout and stderr on
  /// /dev/null, default signal handling, an empty signal mask, its own process group,
  /// and no inherited descriptors beyond those three. Returns the pid, or an errno
  /// description when it could not start.
  static func spawn(_ arguments: [String], environment: [String: String]) -> Result<pid_t, SpawnError> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    if let closeFrom = closeFromAction { _ = closeFrom(&actions, 3) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard result == 0 else { return .failure(SpawnError(code: result)) }
    running.withLock { _ = $0.insert(pid) }
    return .success(pid)
  }

  /// Why a child could not start.
  struct SpawnError: Error {
    let code: Int32
    var description: String { String(cString: strerror(code)) }
  }

  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc ≥ 2.34's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time
  /// because the Glibc module does not import it.
  private static let closeFromAction: CloseFrom? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: CloseFrom.self)
  }()
}
