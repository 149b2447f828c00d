import Foundation

/// Runs the built `notify` (or another product) as a child process, for end-to-end tests.
public struct CommandRunner: Sendable {
  /// What a finished process left behind.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// The folder holding the built products: the one the test bundle was built into
  /// (`.build/<triple>/debug/notifyPackageTests.xctest` on Linux, where the bundle is the
  /// test executable itself; `….xctest/Contents/MacOS/…` on macOS).
  ///
  /// It is found from the bundle's own path, never by looking for something named `notify`
  /// higher up: a clone in a folder named `notify` would match that (a directory passes
  /// `isExecutableFile`). When no `.xctest` is on the way up, or it has no regular `notify`
  /// beside it, the package's `.build/debug` is used.
  public static let productsFolder: URL = {
    let starts = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }
    for start in starts where !start.isEmpty {
      var url = URL(fileURLWithPath: start).resolvingSymlinksInPath()
      while url.pathComponents.count > 1 {
        if url.pathExtension == "xctest" {
          let folder = url.deletingLastPathComponent()
          if isRegularExecutable(folder.appendingPathComponent("notify").path) { return folder }
          break
        }
        url.deleteLastPathComponent()
      }
    }
    // The package root is three folders above this file: Tests/Support/CommandRunner.swift.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug")
  }()

  /// True when `path` is a regular file (a link is followed) that may be executed: a
  /// directory does not count, though `isExecutableFile` says yes to one.
  public static func isRegularExecutable(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
  }

  /// The path of a built product such as `notify`.
  public static func product(_ name: String) -> String {
    productsFolder.appendingPathComponent(name).path
  }

  /// Extra environment for every run (e.g. NOTIFY_DB).
  public var environment: [String: String]
  /// Whether the test's own environment is passed on (see `ChildProcess`), or `environment`
  /// alone.
  public var inheritsEnvironment: Bool
  /// The product to run.
  public var executable: String

  public init(
    executable: String = CommandRunner.product("notify"), environment: [String: String] = [:],
    inheritsEnvironment: Bool = true
  ) {
    self.executable = executable
    self.environment = environment
    self.inheritsEnvironment = inheritsEnvironment
  }

  /// Runs with `arguments`, waits up to `timeout` seconds, returns status and output.
  ///
  /// The child is a `ChildProcess`: an empty signal mask and default signal handlers
  /// (Foundation's `Process` passes on the test thread's blocked signals, so a shell it
  /// starts never sees SIGCHLD (`wait` hangs) and a daemon ignores SIGTERM). Only the
  /// command itself is waited for, not what it leaves running holding its output files.
  @discardableResult
  public func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result {
    let folder = TemporaryFolder(prefix: "notify-run")
    let input = folder.file("stdin")
    let output = folder.file("stdout")
    let errors = folder.file("stderr")
    FileManager.default.createFile(atPath: input, contents: Data((stdin ?? "").utf8))
    let child = try ChildProcess(
      executable, arguments, environment: environment, inheritsEnvironment: inheritsEnvironment,
      stdin: .file(input), stdout: .file(output), stderr: .file(errors))
    guard let status = child.waitExit(timeout: timeout) else {
      child.stop()
      throw CommandRunnerError.timedOut(arguments)
    }
    return Result(status: status, stdout: child.stdout, stderr: child.stderr)
  }

  /// Where one of a child's standard descriptors comes from or goes.
  public enum Redirection: Sendable {
    /// A file: read for stdin; created and appended to for stdout and stderr.
    case path(String)
    /// A descriptor of this process (a pipe's end), duplicated onto the child's.
    case descriptor(Int32)
  }

  /// Starts `arguments` (the first looked up in PATH) with stdio redirected to files, an
  /// empty signal mask and default signal handlers; returns the pid. A child that should
  /// end with the test is a `ChildProcess`.
  public static func spawn(
    _ arguments: [String], environment: [String: String], stdin: String = "/dev/null",
    stdout: String = "/dev/null", stderr: String = "/dev/null"
  ) throws -> pid_t {
    try spawn(arguments, environment: environment, stdio: [.path(stdin), .path(stdout), .path(stderr)])
  }

  /// Starts `arguments` (the first looked up in PATH) with `stdio` as its descriptors 0, 1
  /// and 2, an empty signal mask and default signal handlers; returns the pid.
  public static func spawn(_ arguments: [String], environment: [String: String], stdio: [Redirection]) throws
    -> pid_t
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (fd, redirection) in zip(Int32(0)..., stdio) {
      switch redirection {
      case .path(let path):
        let flags = fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND
        posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o600)
      case .descriptor(let source):
        posix_spawn_file_actions_adddup2(&actions, source, fd)
      }
    }
    closeInheritedDescriptors(&actions)
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
    guard result == 0 else { throw CommandRunnerError.cannotStart(arguments[0], result) }
    return pid
  }
}

extension CommandRunner {
  /// Whether `pid`, a child of this process, has exited (reaped here when it has).
  public static func hasExited(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
  }

  /// Waits for a child started with `spawn` to exit: its exit status, or 128 + the signal
  /// that ended it.
  @discardableResult
  public static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return -1 }
    }
    return exitCode(ofWaitStatus: status)
  }

  /// A `waitpid` status as a shell reports it: the exit status, or 128 + the signal that
  /// ended the process.
  public static func exitCode(ofWaitStatus status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}

/// Makes a `posix_spawn` close every descriptor above stdio in the child. Tests run in
/// parallel threads: without this a daemon one test starts keeps whatever another test had
/// open at that instant, such as a file it fills to make a disk full, or the write end of
/// a pipe whose reader then never sees end of file.
public func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
  _ = closeFrom?(&actions, 3)
}

/// glibc ≥ 2.34's `posix_spawn_file_actions_addclosefrom_np`, which the Glibc module does
/// not import.
private let closeFrom: CloseFrom? = {
  dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
}()
private typealias CloseFrom =
  @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

/// Failures of the runner itself.
public enum CommandRunnerError: Error {
  case timedOut([String])
  case cannotStart(String, Int32)
}
