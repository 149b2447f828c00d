import Foundation
import Testing

/// A power cut, modelled (`Tests/Fixtures/power-cut.c`): the processes of a run write under
/// `root` with a shim preloaded that keeps each file's content as of its last fsync or
/// fdatasync (and each folder's names as of its last sync); the cut kills every process of
/// the run at once, and `restore()` puts back what the disk held, nothing written later.
///
/// A cut comes right after the run's Nth sync of a file under `root` (`cutAfterSyncs`),
/// or at a moment the test picks (`cutAfter` seconds), between syncs.
public final class PowerCut: @unchecked Sendable {
  // Safe: used by one test at a time; the counter of runs is the only mutable state.
  /// The C compiler the shim is built with, when there is one.
  public static let compiler: String? = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Why a power-cut test cannot run here, or nil.
  public static let unavailable: String? = {
    if compiler == nil { return "needs a C compiler (cc) to build the power-cut shim" }
    if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") {
      return "needs /usr/bin/setsid (util-linux)"
    }
    return nil
  }()

  /// The folder of the run: `root` is the watched part, the disk copies live beside it.
  public let folder = TemporaryFolder(prefix: "notify-power-cut")
  /// What the cut applies to: every file and folder under it.
  public let root: String
  /// More watched folders (a sound folder), besides `root`.
  public let otherRoots: [String]
  private var disk: String
  private var runs = 0

  /// How a run ended.
  public enum Outcome: Equatable, Sendable {
    /// The script ended by itself with this status, before any cut.
    case exited(Int32)
    /// The power was cut.
    case cut
  }

  public init(otherRoots: [String] = []) throws {
    // The shim compares paths as the kernel names them (`/proc/self/fd`): no `//`, no links.
    let base = realpath(folder.path, nil).map { String(cString: $0) } ?? folder.path
    root = base + "/root"
    disk = base + "/disk-0"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    for other in otherRoots {
      try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    }
    self.otherRoots = otherRoots.map { realpath($0, nil).map { String(cString: $0) } ?? $0 }
  }

  /// What every process of a run gets: the shim and where it keeps the disk's copies.
  public var environment: [String: String] {
    [
      "LD_PRELOAD": Self.tools.shim, "POWER_CUT_ROOTS": ([root] + otherRoots).joined(separator: ":"),
      "POWER_CUT_DISK": disk,
    ]
  }

  /// Takes what is under the roots now as on the disk: the state the next run starts from.
  public func begin() throws {
    runs += 1
    disk = (disk as NSString).deletingLastPathComponent + "/disk-\(runs)"
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let result = try CommandRunner(executable: Self.tools.restore, environment: environment).run(
      ["--snapshot", root] + otherRoots)
    try #require(result.status == 0, "power-cut snapshot: \(result.stderr)")
  }

  /// The syncs of watched files counted in the current run (counted only when the run was
  /// given `cutAfterSyncs`).
  public var syncs: Int {
    let text = (try? String(contentsOfFile: disk + "/syncs", encoding: .utf8)) ?? ""
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// Runs `script` under `/bin/sh` in a session of its own, every process of it with the
  /// shim; cuts the power after `cutAfterSyncs` syncs or `cutAfter` seconds, whichever
  /// comes first, and otherwise once the script ended (at most `timeout` seconds: what it
  /// left running goes with the power). Every process of the run is gone when this
  /// returns, and `restore()` comes next.
  public func run(
    _ script: String, arguments: [String] = [], environment extra: [String: String] = [:],
    cutAfterSyncs: Int? = nil, cutAfter seconds: Double? = nil, timeout: TimeInterval = 120
  ) throws -> Outcome {
    var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }.merging(self.environment) {
      $1
    }
    // The count is kept whenever a cut by syncs may come; a huge number counts without cutting.
    environment["POWER_CUT_AFTER"] = String(cutAfterSyncs ?? 1_000_000_000)
    let body = "POWER_CUT_GROUP=$$; export POWER_CUT_GROUP\n" + script
    let log = folder.file("run-\(runs).log")
    let leader = try CommandRunner.spawn(
      ["/usr/bin/setsid", "/bin/sh", "-c", body, "sh"] + arguments, environment: environment,
      stdout: log, stderr: log)
    let deadline = Date() + min(timeout, seconds ?? timeout)
    var status: Int32 = 0
    var ended = false
    while Date() < deadline {
      if waitpid(leader, &status, WNOHANG) == leader {
        ended = true
        break
      }
      usleep(1000)
    }
    let killedByShim = ended && (status & 0x7f) == SIGKILL
    // The power goes now, for what the run left running too (a daemon it started), or the
    // run took too long: that is a failure, reported below.
    kill(-leader, SIGKILL)
    if !ended { _ = waitpid(leader, &status, 0) }
    // Every process of the group, the ones the shell left behind included, is gone
    // before the disk is looked at.
    let gone = Date() + 10
    while Self.livingMembers(ofGroup: leader) > 0, Date() < gone {
      kill(-leader, SIGKILL)
      usleep(1000)
    }
    if !ended, seconds == nil || seconds! >= timeout {
      throw PowerCutError.timedOut(script, log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
    if !ended || killedByShim { return .cut }
    return .exited(CommandRunner.exitCode(ofWaitStatus: status))
  }

  /// How many processes of group `group` still run (zombies, which nothing may reap on
  /// this machine, do not count: they write nothing more).
  static func livingMembers(ofGroup group: pid_t) -> Int {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    var living = 0
    for name in names where name.first?.isNumber == true {
      guard let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // "PID (COMM) STATE PPID PGRP ..."
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 3, Int32(fields[3]) == group, fields[0] != "Z", fields[0] != "X" else { continue }
      living += 1
    }
    return living
  }

  /// The run's output (its processes' stdout and stderr, unless redirected).
  public var log: String {
    (try? String(contentsOfFile: folder.file("run-\(runs).log"), encoding: .utf8)) ?? ""
  }

  /// Plays the cut back: each watched file holds what its last sync left on the disk.
  public func restore() throws {
    let result = try CommandRunner(executable: Self.tools.restore, environment: ["POWER_CUT_DISK": disk]).run(
      [root] + otherRoots)
    try #require(result.status == 0, "power-cut restore: \(result.stderr)")
  }

  /// The shim and the restore tool, built once per test process.
  static let tools: (shim: String, restore: String) = {
    let folder = NSTemporaryDirectory() + "/notify-power-cut-tools-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/power-cut.c").path
    let shim = folder + "/power-cut.so"
    let restore = folder + "/power-cut-restore"
    if let compiler {
      let cc = CommandRunner(executable: compiler)
      _ = try? cc.run(["-shared", "-fPIC", "-O2", "-o", shim, source, "-ldl"])
      _ = try? cc.run(["-O2", "-DPOWER_CUT_RESTORE", "-o", restore, source])
    }
    atexit {
      try? FileManager.default.removeItem(
        atPath: NSTemporaryDirectory() + "/notify-power-cut-tools-\(getpid())")
    }
    return (shim, restore)
  }()
}

public enum PowerCutError: Error, CustomStringConvertible {
  case timedOut(String, log: String)

  public var description: String {
    switch self {
    case .timedOut(let script, let log): "the run did not end in time: \(script)\n\(log)"
    }
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where the power-cut shim can be built; skips it saying why.
  public static var needsPowerCut: Self {
    .enabled(if: PowerCut.unavailable == nil, "\(PowerCut.unavailable ?? "")")
  }
}
