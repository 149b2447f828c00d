import Foundation
import NotifyTestSupport

/// A built product running in the background for an integration test: its stdin can be
/// written, its stdout and stderr are collected as they come, and it is stopped when the
/// test is done.
///
/// Started with `posix_spawn` rather than `Process`: a child inherits the blocked-signal
/// mask of the thread that spawns it, and test threads block SIGTERM, so a server started
/// by `Process` from a test could not be stopped gracefully. Here the child starts with
/// nothing blocked and default signal handling.
final class RunningProcess: @unchecked Sendable {
  private let pid: pid_t
  private let stdinFD: Int32
  private let outputFD: Int32
  private let lock = NSLock()
  private var outText = ""
  private var errText = ""
  private var status: Int32?
  /// Stdout is not read while held (`holdStdout`); the reader waits on this.
  private let held = NSCondition()
  private var holding = false
  /// Signalled by each reader thread at end of file.
  private let readersDone = DispatchSemaphore(value: 0)

  /// Starts `executable` with `arguments`, adding `environment` to the test's own. With
  /// `smallStdout` its stdout pipe holds one page (4 KiB) instead of 64 KiB, so that a
  /// test holding stdout (`holdStdout()`) makes the child's writes block soon.
  init(_ executable: String, _ arguments: [String], environment: [String: String], smallStdout: Bool = false)
    throws
  {
    let input = try Self.pipe()
    let out = try Self.pipe()
    let err = try Self.pipe()
    if smallStdout {
      // F_SETPIPE_SZ (Linux): the smallest size is one page.
      _ = fcntl(out.read, 1031, Int32(4096))
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input.read, 0)
    posix_spawn_file_actions_adddup2(&actions, out.write, 1)
    posix_spawn_file_actions_adddup2(&actions, err.write, 2)
    closeInheritedDescriptors(&actions)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var nothing = sigset_t()
    sigemptyset(&nothing)
    posix_spawnattr_setsigmask(&attributes, &nothing)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    for fd in [input.read, out.write, err.write] { close(fd) }
    guard result == 0 else {
      for fd in [input.write, out.read, err.read] { close(fd) }
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
    }
    pid = child
    stdinFD = input.write
    outputFD = out.read
    // A thread per pipe reads until end of file (blocking reads, then the descriptor is
    // closed by that thread): no dispatch source watches a descriptor that could be closed
    // under it (FileHandle's readabilityHandler did, and a closed and reused descriptor
    // crashed libdispatch's event loop once in a CI run).
    startReader(out.read, holdable: true) { [weak self] text in self?.lock.withLock { self?.outText += text }
    }
    startReader(err.read, holdable: false) { [weak self] text in self?.lock.withLock { self?.errText += text }
    }
  }

  private func startReader(_ fd: Int32, holdable: Bool, _ append: @escaping @Sendable (String) -> Void) {
    let held = self.held
    let done = readersDone
    let isHeld: @Sendable () -> Bool = { [weak self] in self?.holding ?? false }
    Thread {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        if holdable {
          held.lock()
          while isHeld() { held.wait() }
          held.unlock()
        }
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        append(String(decoding: buffer[0..<count], as: UTF8.self))
      }
      close(fd)
      done.signal()
    }.start()
  }

  /// Stops reading stdout: once its pipe is full, the child's writes to stdout block.
  func holdStdout() {
    held.lock()
    holding = true
    held.unlock()
  }

  /// Reads stdout again, as it comes.
  func releaseStdout() {
    held.lock()
    holding = false
    held.broadcast()
    held.unlock()
  }

  /// How many bytes wait in the stdout pipe, unread.
  var stdoutBytesWaiting: Int {
    var count: Int32 = 0
    return ioctl(outputFD, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
  }

  /// Everything written to stdout so far.
  var stdout: String { lock.withLock { outText } }
  /// Everything written to stderr so far.
  var stderr: String { lock.withLock { errText } }
  /// The complete lines of stdout so far.
  var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
  /// Whether it still runs.
  var isRunning: Bool { exitStatus == nil }

  /// The exit status (or 128 + signal), once it has exited.
  var exitStatus: Int32? {
    lock.withLock {
      if status == nil {
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
          let signal = raw & 0x7F
          status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        }
      }
      return status
    }
  }

  /// Types a line on its stdin. A process that has exited gets nothing, and the test
  /// process is not killed by the SIGPIPE of writing to it: the signal is blocked on this
  /// thread for the write and taken back if it came.
  func type(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    let written = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
    if written < 0, errno == EPIPE {
      var none = timespec(tv_sec: 0, tv_nsec: 0)
      _ = sigtimedwait(&pipeSignal, nil, &none)
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  /// Sends SIGTERM and waits up to `timeout` seconds for it to exit (then SIGKILL).
  func stop(timeout: TimeInterval = 10) {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    if waitForExit(timeout: timeout) == nil {
      kill(pid, SIGKILL)
      _ = waitForExit(timeout: 5)
    }
  }

  /// Waits up to `timeout` seconds for it to exit by itself; its status, or nil.
  @discardableResult
  func waitForExit(timeout: TimeInterval) -> Int32? {
    let deadline = Date() + timeout
    while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return exitStatus
  }

  deinit {
    stop()
    close(stdinFD)
    // The readers end at end of file once the child (and whatever inherited its pipes) is
    // gone; a held stdout is let go so that its reader drains it.
    releaseStdout()
    for _ in 0..<2 { _ = readersDone.wait(timeout: .now() + 5) }
  }

  private static func pipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    guard Glibc.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
    // Close-on-exec, so only the dup2'd copies reach the child.
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
  }
}
