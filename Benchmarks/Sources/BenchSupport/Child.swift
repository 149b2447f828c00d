import Foundation
import Glibc

/// A child process started with `posix_spawn`, an empty signal mask and default signal
/// dispositions (Foundation's `Process` passes on blocked signals, so a daemon it starts
/// may ignore SIGTERM), reaped with `waitpid`.
public final class Child {
  /// The process id.
  public let pid: pid_t
  /// The read end of the child's stdout when it was piped (`stdout: .pipe`).
  public let output: Int32?
  private var status: Int32?

  /// Where a child's stdout goes.
  public enum Output {
    /// Discarded.
    case null
    /// A pipe the parent reads through `output`.
    case pipe
    /// Appended to a file.
    case file(String)
  }

  /// Starts `arguments[0]` (a path, or a name looked up in PATH) with `environment`
  /// (default: this process's), stdin from /dev/null or `stdin`, stderr to a file or
  /// /dev/null.
  public init(
    _ arguments: [String], environment: [String: String]? = nil, stdout: Output = .null,
    stderr: String? = nil, stdin: String? = nil
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    var pipeEnds: [Int32] = [-1, -1]
    switch stdout {
    case .null: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    case .pipe:
      guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
      // Neither end may leak into other children; dup2 gives this child a clean fd 1.
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    }
    posix_spawn_file_actions_addopen(
      &actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)

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

    let environment = environment ?? ProcessInfo.processInfo.environment
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
    guard result == 0 else {
      if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
      throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
    }
    self.pid = pid
    self.output = pipeEnds[0] >= 0 ? pipeEnds[0] : nil
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      _ = wait()
    }
    if let output { close(output) }
  }

  /// Waits for the child to end; its exit status, or 128 + the signal that ended it.
  @discardableResult
  public func wait() -> Int32 {
    if let status { return status }
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 {
      guard errno == EINTR else { return -1 }
    }
    let signal = raw & 0x7f
    let result = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    status = result
    return result
  }

  /// Sends `signal`.
  public func send(_ signal: Int32) { kill(pid, signal) }

  /// Stops the child with SIGTERM (then SIGKILL after `grace` seconds) and reaps it.
  @discardableResult
  public func stop(grace: TimeInterval = 5) -> Int32 {
    if let status { return status }
    send(SIGTERM)
    let deadline = realNow() + grace
    var raw: Int32 = 0
    while realNow() < deadline {
      let reaped = waitpid(pid, &raw, WNOHANG)
      if reaped == pid {
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status!
      }
      usleep(10_000)
    }
    send(SIGKILL)
    return wait()
  }

  /// Runs `arguments` to completion with stdout and stderr discarded; its exit status.
  @discardableResult
  public static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Int32 {
    try Child(arguments, environment: environment).wait()
  }
}
