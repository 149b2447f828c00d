// CLI cost: `notify schedule` end to end (process start to exit, as a shell script sees
// it) against `at` handing a job to atd, interleaved run by run so that both see the same
// machine. Each has its service running, as users have: atd, and `notify daemon` on the
// store (which keeps the store open and re-arms on every change). Reports the median of
// each repeat and the median of those. See BENCHMARKS.md.
//   usage: cli-cost --notify PATH [--at PATH] [--runs N] [--repeats N] [--smoke]
import BenchSupport
import Foundation
import Glibc

/// True when a process named `name` runs (zombies do not count).
func running(_ name: String) -> Bool {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.contains { entry in
    guard Int(entry) != nil,
      let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
      comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
      let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8)
    else { return false }
    return !status.contains("State:\tZ")
  }
}

/// Runs `arguments` once; its wall time in seconds (fork to reaped), failing on a non-zero exit.
func timed(_ arguments: [String], environment: [String: String], stderr: String? = nil) throws -> Double {
  let start = monotonicNow()
  let status = try Child(arguments, environment: environment, stderr: stderr).wait()
  let elapsed = monotonicNow() - start
  guard status == 0 else {
    throw BenchError("\(arguments.prefix(2).joined(separator: " ")) exited \(status)")
  }
  return elapsed
}

runHarness("cli-cost") {
  let arguments = Arguments()
  let notify = arguments.string("--notify", "../.build/release/notify")
  let at = arguments.string("--at", "at")
  let runs = arguments.int("--runs", arguments.smoke ? 5 : 40)
  let repeats = arguments.int("--repeats", arguments.smoke ? 1 : 3)
  guard running("atd") else {
    throw BenchError("atd is not running: install the Debian package `at` and start it (`atd`)")
  }
  let scratch = ScratchFolder(prefix: "notify-cli")
  let db = scratch.file("notify.db")
  let job = scratch.file("job.sh")
  let atLog = scratch.file("at.err")
  try "true\n".write(toFile: job, atomically: true, encoding: .utf8)
  var environment = ProcessInfo.processInfo.environment
  for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_DB", "NOTIFY_SOCKET"] { environment[key] = nil }
  defer {
    // Remove exactly the jobs this run gave atd ("job 42 at ..." lines on at's stderr).
    let log = (try? String(contentsOfFile: atLog, encoding: .utf8)) ?? ""
    let ids = log.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      return words.count > 1 && words[0] == "job" ? String(words[1]) : nil
    }
    if !ids.isEmpty { _ = try? Child.run(["atrm"] + ids) }
  }

  var serial = 0
  func notifyRun() throws -> Double {
    serial += 1
    // 50 per app, so the 64 limit never discards (which would change the work done).
    return try timed(
      [
        notify, "schedule", "--db", db, "--app", "cli\(serial / 50)", "--in", "1h", "--title",
        "cli bench \(serial)",
      ],
      environment: environment)
  }
  func atRun() throws -> Double {
    try timed([at, "-f", job, "now", "+", "1", "hour"], environment: environment, stderr: atLog)
  }
  // The daemon, as a user runs it, on the same store.
  let daemon = try Child(
    [notify, "daemon", "--sink", "stdout", "--db", db], environment: environment,
    stderr: scratch.file("daemon.err"))
  defer { daemon.stop() }
  // Warm-up: the store file exists and both binaries are in the page cache.
  for _ in 0..<3 {
    _ = try notifyRun()
    _ = try atRun()
  }
  var notifyMedians: [Double] = []
  var atMedians: [Double] = []
  for _ in 0..<repeats {
    var ours: [Double] = []
    var theirs: [Double] = []
    for run in 0..<runs {
      // Alternate which goes first so neither always follows the other.
      if run % 2 == 0 {
        ours.append(try notifyRun())
        theirs.append(try atRun())
      } else {
        theirs.append(try atRun())
        ours.append(try notifyRun())
      }
    }
    notifyMedians.append(Stats.median(ours))
    atMedians.append(Stats.median(theirs))
  }
  let ours = Stats.median(notifyMedians)
  let theirs = Stats.median(atMedians)
  print("### CLI cost: process start to exit, median of \(repeats) x \(runs) runs")
  print()
  print(Format.header(["", "median", "medians of the repeats"]))
  print(
    Format.row([
      "notify schedule --in 1h", Format.duration(ours),
      notifyMedians.map(Format.duration).joined(separator: ", "),
    ]))
  print(
    Format.row([
      "at -f job now + 1 hour", Format.duration(theirs),
      atMedians.map(Format.duration).joined(separator: ", "),
    ]))
  print()
  print(
    "ratio notify/at: \(Format.ratio(ours / theirs)); target <= 2x (\(Format.verdict(ours <= 2 * theirs)))")
}
