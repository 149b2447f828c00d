import Foundation

/// A child process for an integration test, the one wrapper the tests start processes
/// with: a daemon, a client, a server. It starts with an empty signal mask and default
/// signal handlers (`CommandRunner.spawn`), its stdout and stderr go to files or are read
/// from pipes as they come, its stdin is a pipe the test types into when asked, and its
/// sd_notify messages reach a listener when it has one. It is reaped here, and killed
/// (SIGKILL) when the value goes away if it still runs.
///
/// `@unchecked Sendable`: the exit status and the text read from pipes change under
/// `lock`, whether stdout is held under `held`; everything else is set once in `init`.
public final class ChildProcess: @unchecked Sendable {
  /// Where stdout or stderr goes.
  public enum Output: Sendable {
    /// Appended to a file, which survives the process (and a `kill -9`).
    case file(String)
    /// A pipe read as it comes; `capacity` (bytes, at least one page) makes it smaller than
    /// the kernel's 64 KiB, so that a test holding stdout (`holdStdout`) blocks the child soon.
    case pipe(capacity: Int? = nil)
  }

  /// Where stdin comes from.
  public enum Input: Sendable {
    /// `/dev/null`.
    case null
    /// A file read from its start.
    case file(String)
    /// A pipe the test writes lines into (`type`).
    case pipe
  }

  /// The process id.
  public let pid: pid_t
  private let outputPath: String?
  private let errorPath: String?
  private let stdinFD: Int32?
  private let stdoutFD: Int32?
  private let readiness: NotifySocketListener?
  private let lock = NSLock()
  private var exitStatus: Int32?
  private var gone = false
  private var outText = ""
  private var errText = ""
  /// Stdout is not read while held (`holdStdout`); its reader waits on this.
  private let held = NSCondition()
  private var holding = false
  /// Signalled by each pipe reader at end of file.
  private let readersDone = DispatchSemaphore(value: 0)
  private var readers = 0

  /// The variables of the unit running the tests, which a child must not take for its own
  /// (it would log to that journal, or talk to that manager), and notify's own, which each
  /// test sets itself.
  static let inheritedVariablesRemoved = [
    "JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "NOTIFY_DB",
    "NOTIFY_SCHEDULER",
  ]

  /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`, with the
  /// test's environment minus the unit's and notify's variables (none of it when not
  /// `inheritsEnvironment`), plus `environment`. With `notifySocket` (a path) it gets a
  /// `NOTIFY_SOCKET` whose messages `listener` receives.
  public init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
    inheritsEnvironment: Bool = true, stdin: Input = .null, stdout: Output = .pipe(),
    stderr: Output = .pipe(),
    notifySocket: String? = nil
  ) throws {
    var env = inheritsEnvironment ? ProcessInfo.processInfo.environment : [:]
    for key in Self.inheritedVariablesRemoved { env[key] = nil }
    readiness = try notifySocket.map { try NotifySocketListener(path: $0) }
    env["NOTIFY_SOCKET"] = readiness?.path
    for (key, value) in environment { env[key] = value }

    // The parent's ends are close-on-exec, so only the copies on 0, 1 and 2 reach the child.
    var parentEnds: [Int32] = []
    var childEnds: [Int32] = []
    defer { childEnds.forEach { close($0) } }
    func pipeEnds() throws -> (read: Int32, write: Int32) {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      return (fds[0], fds[1])
    }
    do {
      var stdio: [CommandRunner.Redirection] = []
      switch stdin {
      case .null:
        stdinFD = nil
        stdio.append(.path("/dev/null"))
      case .file(let path):
        stdinFD = nil
        stdio.append(.path(path))
      case .pipe:
        let ends = try pipeEnds()
        parentEnds.append(ends.write)
        childEnds.append(ends.read)
        stdinFD = ends.write
        stdio.append(.descriptor(ends.read))
      }
      var readEnds: [Int32?] = []
      for output in [stdout, stderr] {
        switch output {
        case .file(let path):
          readEnds.append(nil)
          stdio.append(.path(path))
        case .pipe(let capacity):
          let ends = try pipeEnds()
          parentEnds.append(ends.read)
          childEnds.append(ends.write)
          // F_SETPIPE_SZ (Linux): the smallest size is one page.
          if let capacity { _ = fcntl(ends.read, 1031, Int32(capacity)) }
          readEnds.append(ends.read)
          stdio.append(.descriptor(ends.write))
        }
      }
      if case .file(let path) = stdout { outputPath = path } else { outputPath = nil }
      if case .file(let path) = stderr { errorPath = path } else { errorPath = nil }
      stdoutFD = readEnds[0]
      pid = try CommandRunner.spawn([executable] + arguments, environment: env, stdio: stdio)
      // A thread per pipe reads until end of file (blocking reads, then the descriptor is
      // closed by that thread): no dispatch source watches a descriptor that could be
      // closed under it (FileHandle's readabilityHandler did, and a closed and reused
      // descriptor crashed libdispatch's event loop once in a CI run).
      if let fd = readEnds[0] {
        startReader(fd, holdable: true) { [weak self] text in self?.lock.withLock { self?.outText += text } }
      }
      if let fd = readEnds[1] {
        startReader(fd, holdable: false) { [weak self] text in self?.lock.withLock { self?.errText += text } }
      }
    } catch {
      parentEnds.forEach { close($0) }
      throw error
    }
  }

  deinit {
    stop()
    if let stdinFD { close(stdinFD) }
    // The readers end at end of file once the child (and whatever inherited its pipes) is
    // gone; a held stdout is let go so that its reader drains it.
    releaseStdout()
    for _ in 0..<readers { _ = readersDone.wait(timeout: .now() + 5) }
  }

  private func startReader(_ fd: Int32, holdable: Bool, _ append: @escaping @Sendable (String) -> Void) {
    readers += 1
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

  // MARK: Output

  /// Everything written to stdout so far.
  public var stdout: String {
    outputPath.map { fileBytes($0).map { String(decoding: $0, as: UTF8.self) } ?? "" }
      ?? lock.withLock { outText }
  }

  /// Everything written to stderr so far.
  public var stderr: String {
    errorPath.map { fileBytes($0).map { String(decoding: $0, as: UTF8.self) } ?? "" }
      ?? lock.withLock { errText }
  }

  /// The lines of stdout so far.
  public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

  /// The listener of its sd_notify messages; only for a process started with `notifySocket`.
  public var listener: NotifySocketListener {
    guard let readiness else { preconditionFailure("the process was started without a notify socket") }
    return readiness
  }

  /// Waits for READY=1 from sd_notify.
  public func waitReady(timeout: TimeInterval = 60) -> Bool {
    listener.waitFor("READY=1", timeout: timeout) != nil
  }

  /// True when it holds a file whose path ends with `suffix` open (e.g. the store's WAL,
  /// which a daemon opens with the store).
  public func hasOpen(_ suffix: String) -> Bool {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.contains { fd in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"))?.hasSuffix(suffix)
        ?? false
    }
  }

  // MARK: Stdin and a held stdout

  /// Types a line on its stdin (a pipe). A process that has exited gets nothing, and the
  /// test process is not killed by the SIGPIPE of writing to it: the signal is blocked on
  /// this thread for the write and taken back if it came.
  public func type(_ line: String) {
    guard let stdinFD else { preconditionFailure("the process was started without a stdin pipe") }
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

  /// Stops reading stdout (a pipe): once the pipe is full, the child's writes to it block.
  public func holdStdout() {
    held.lock()
    holding = true
    held.unlock()
  }

  /// Reads stdout again, as it comes.
  public func releaseStdout() {
    held.lock()
    holding = false
    held.broadcast()
    held.unlock()
  }

  /// How many bytes wait in the stdout pipe, unread.
  public var stdoutBytesWaiting: Int {
    var count: Int32 = 0
    guard let stdoutFD else { return 0 }
    return ioctl(stdoutFD, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
  }

  // MARK: Exit

  /// The exit status (or 128 + the signal that ended it) once it has exited, else nil.
  /// Reaps it.
  public var status: Int32? {
    lock.withLock {
      reap()
      return exitStatus
    }
  }

  /// True while it runs.
  public var isRunning: Bool { lock.withLock { !reap() } }

  /// Collects the exit status once the process has ended; true when it has (or when
  /// someone else reaped it, with no status then).
  @discardableResult
  private func reap() -> Bool {
    if exitStatus != nil || gone { return true }
    var raw: Int32 = 0
    let result = waitpid(pid, &raw, WNOHANG)
    if result == pid {
      exitStatus = CommandRunner.exitCode(ofWaitStatus: raw)
      return true
    }
    gone = result < 0 && errno == ECHILD
    return gone
  }

  /// Sends `signal`, unless it has exited (its pid may belong to another process by then).
  public func send(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  /// Waits up to `timeout` seconds for it to exit; its status (128 + signal when killed),
  /// or nil at the deadline.
  @discardableResult
  public func waitExit(timeout: TimeInterval = 60) -> Int32? {
    _ = waitUntil(timeout: timeout, interval: 0.002) { !isRunning }
    return status
  }

  /// Kills it (SIGKILL) and reaps it, if it still runs.
  public func stop() {
    guard isRunning else { return }
    kill(pid, SIGKILL)
    waitExit(timeout: 10)
  }

  /// Asks it to end (SIGTERM), and kills it if it has not within `timeout` seconds.
  public func terminate(timeout: TimeInterval = 10) {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    if waitExit(timeout: timeout) == nil { stop() }
  }
}

extension ChildProcess {
  /// `notify ARGUMENTS --db DB` (or another built `program`), its stdout and stderr in
  /// `folder/NAME.out` and `.err` (what it delivered survives `kill -9`), its sd_notify
  /// messages on `folder/NAME.sock`; `name` keeps its files apart from other processes'.
  public static func notify(
    _ arguments: [String], db: String, folder: TemporaryFolder, name: String,
    environment: [String: String] = [:], program: String = "notify"
  ) throws -> ChildProcess {
    try ChildProcess(
      CommandRunner.product(program), arguments + ["--db", db], environment: environment,
      stdout: .file(folder.file("\(name).out")), stderr: .file(folder.file("\(name).err")),
      notifySocket: folder.file("\(name).sock"))
  }
}
