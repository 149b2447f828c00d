import Foundation
import Testing

/// logind as `python3-dbusmock`'s `logind` template plays it, on a private bus that stands
/// in for the system bus (give processes `DBUS_SYSTEM_BUS_ADDRESS`: `environment`): it hands
/// out inhibitors (`Inhibit`, dropped when their descriptor closes) and lists them
/// (`ListInhibitors`), and the test makes it announce sleep and shutdown
/// (`org.freedesktop.DBus.Mock.EmitSignal`). No machine here can suspend: this is what
/// logind says around one. Stopped when it goes away.
public final class LogindMock {
  /// Why it cannot run here, nil when it can (`python3-dbusmock` installed).
  public static let unavailable: String? = {
    let probe = try? CommandRunner(executable: "/usr/bin/python3").run([
      "-c", "import dbusmock.templates.logind",
    ])
    return probe?.status == 0
      ? nil : "python3-dbusmock is not installed (bash .ci/install-packages installs it)"
  }()

  /// The bus's address.
  public let address: String
  /// `DBUS_SYSTEM_BUS_ADDRESS` for processes that should see this logind.
  public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }
  private var process: ChildProcess?

  /// Starts the template on the bus at `address` (one of `ScriptedDesktop`'s, or a bus of
  /// its own); returns once it answers.
  public init(address: String, in folder: TemporaryFolder) throws {
    self.address = address
    let log = folder.file("logind-mock.log")
    let process = try ChildProcess(
      "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "logind"],
      environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], stdout: .file(log), stderr: .file(log))
    self.process = process
    // Up: it answers ListInhibitors (python with gi takes seconds on a loaded machine).
    var exited = false
    let up = waitUntil(timeout: 60, interval: 0.1) {
      exited = !process.isRunning
      return exited || (try? self.inhibitors()) != nil
    }
    if exited { self.process = nil }
    try #require(
      up && !exited,
      "the logind mock did not start: \(fileBytes(log).map { String(decoding: $0, as: UTF8.self) } ?? "")")
  }

  deinit { stop() }

  /// Stops it and waits until it exited.
  public func stop() {
    process?.terminate(timeout: 60)
    process = nil
  }

  /// One inhibitor as `ListInhibitors` lists it.
  public struct Inhibitor: Hashable, Sendable {
    public var what: String
    public var who: String
    public var why: String
    public var mode: String

    public init(what: String, who: String, why: String, mode: String) {
      self.what = what
      self.who = who
      self.why = why
      self.mode = mode
    }
  }

  /// The inhibitors held now.
  public func inhibitors() throws -> [Inhibitor] {
    let out = try call("org.freedesktop.login1.Manager.ListInhibitors")
    // ([('sleep:shutdown', 'notify', 'delivering a notification', 'delay', uint32 1000, uint32 123456)],)
    var found: [Inhibitor] = []
    for tuple in out.components(separatedBy: "('").dropFirst() {
      let strings = tuple.components(separatedBy: "'").enumerated().filter { $0.offset % 2 == 0 }.map(
        \.element)
      guard strings.count >= 4 else { continue }
      found.append(Inhibitor(what: strings[0], who: strings[1], why: strings[2], mode: strings[3]))
    }
    return found
  }

  /// Announces a sleep (`true`: going to sleep; `false`: resumed).
  public func prepareForSleep(_ starting: Bool) throws {
    _ = try call(
      "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
      "[<\(starting)>]")
  }

  /// Announces a shutdown (`true`), or that it was called off (`false`).
  public func prepareForShutdown(_ starting: Bool) throws {
    _ = try call(
      "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager", "PrepareForShutdown", "b",
      "[<\(starting)>]")
  }

  private func call(_ method: String, _ arguments: String...) throws -> String {
    let result = try CommandRunner(executable: "/usr/bin/gdbus").run(
      [
        "call", "--address", address, "--dest", "org.freedesktop.login1", "--object-path",
        "/org/freedesktop/login1", "--method", method,
      ] + arguments, timeout: 30)
    guard result.status == 0 else { throw LogindMockError.callFailed(method, result.stderr) }
    return result.stdout
  }
}

/// A call to the mock that failed.
public enum LogindMockError: Error {
  case callFailed(String, String)
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where `python3-dbusmock` is installed; skips it saying why.
  public static var needsLogindMock: Self {
    .enabled(if: LogindMock.unavailable == nil, Comment(rawValue: LogindMock.unavailable ?? ""))
  }
}
