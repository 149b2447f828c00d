// Calendars' cost in `notify daemon` (docs/calendars.md): a vdir folder of 5,000 events
// with alarms read in, what watching it adds to the daemon's memory, one changed file
// rescheduled, and the wake-ups of an idle daemon watching it. See BENCHMARKS.md.
//   usage: calendar-cost --notify PATH [--events N] [--window S] [--smoke]
import BenchSupport
import Foundation
import Glibc

/// An event file whose alarm goes off `hours` from now.
func event(_ n: Int, hours: Int, summary: String) -> String {
  let start = Date().addingTimeInterval(Double(hours) * 3600 + 600)
  var seconds = time_t(start.timeIntervalSince1970)
  var parts = tm()
  gmtime_r(&seconds, &parts)
  let stamp = String(
    format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
    parts.tm_hour,
    parts.tm_min, parts.tm_sec)
  return [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify bench//EN", "BEGIN:VEVENT", "UID:bench-\(n)@notify",
    "DTSTAMP:20260101T000000Z", "DTSTART:\(stamp)", "DURATION:PT1H", "SUMMARY:\(summary)",
    "DESCRIPTION:Room \(n % 40)", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT10M",
    "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
  ].joined(separator: "\r\n")
}

/// Starts `notify daemon`, waits for READY=1; returns it and the seconds that took.
func startDaemon(
  _ notify: String, db: String, scratch: ScratchFolder, name: String, environment: [String: String]
) throws
  -> (Child, Double)
{
  var environment = environment
  let ready = try ReadySocket(path: scratch.file("\(name).sock"))
  environment["NOTIFY_SOCKET"] = ready.path
  let started = monotonicNow()
  let daemon = try Child(
    [notify, "daemon", "--sink", "stdout", "--db", db], environment: environment,
    stdout: .file(scratch.file("\(name).out")), stderr: scratch.file("\(name).err"))
  guard ready.wait(timeout: 60) else { throw BenchError("notify daemon sent no READY=1 within 60 s") }
  let took = monotonicNow() - started
  ready.close()
  return (daemon, took)
}

/// Waits until the counters stay still for a second (at most 30 s).
func settle(_ pid: Int32) {
  let deadline = monotonicNow() + 30
  while monotonicNow() < deadline {
    let first = ProcessStats.contextSwitches(pid)
    usleep(1_000_000)
    if first == ProcessStats.contextSwitches(pid) { return }
  }
}

runHarness("calendar-cost") {
  let arguments = Arguments()
  let notify = arguments.string("--notify", "../.build/release/notify")
  let count = arguments.int("--events", arguments.smoke ? 300 : 5000)
  let window = arguments.seconds("--window", arguments.smoke ? 5 : 60)
  let scratch = ScratchFolder(prefix: "notify-calendar")
  var environment = ProcessInfo.processInfo.environment
  for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_DB", "WATCHDOG_USEC", "NOTIFY_SCHEDULER"] {
    environment[key] = nil
  }
  environment["TZ"] = "UTC"
  let vdir = scratch.file("vdir")
  try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
  for n in 0..<count {
    try Data(event(n, hours: n + 1, summary: "Event \(n)").utf8).write(
      to: URL(fileURLWithPath: vdir + "/e\(n).ics"))
  }

  // The floor: the same daemon on a store without calendars.
  let plain = scratch.file("plain.db")
  guard
    try Child.run(
      [notify, "schedule", "--db", plain, "--in", "1h", "--title", "x"], environment: environment) == 0
  else { throw BenchError("notify schedule failed") }
  let (bare, bareStart) = try startDaemon(
    notify, db: plain, scratch: scratch, name: "bare", environment: environment)
  settle(bare.pid)
  let bareRSS = ProcessStats.residentKiB(bare.pid) ?? 0
  _ = bare.stop()

  // Read in by `notify calendar add` (process start to exit: parse, expand, store).
  let db = scratch.file("notify.db")
  let addStarted = monotonicNow()
  guard
    try Child.run([notify, "calendar", "add", vdir, "--name", "bench", "--db", db], environment: environment)
      == 0
  else { throw BenchError("notify calendar add failed") }
  let addTook = monotonicNow() - addStarted
  _ = try Child.run([notify, "schedule", "--db", db, "--in", "1h", "--title", "x"], environment: environment)

  // Read in again by a daemon starting on it (READY after its first scan), and its memory.
  let (daemon, start) = try startDaemon(
    notify, db: db, scratch: scratch, name: "daemon", environment: environment)
  settle(daemon.pid)
  let rss = ProcessStats.residentKiB(daemon.pid) ?? 0

  // Idle while watching.
  let before = ProcessStats.contextSwitches(daemon.pid) ?? -1
  usleep(UInt32(window * 1e6))
  let after = ProcessStats.contextSwitches(daemon.pid) ?? -1
  let wakeups = Double(after - before) / window * 60

  // One changed file: the rescan's own time (the daemon logs it), and from the write until
  // the store holds the new title (the watch waits 150 ms for a burst to settle first).
  var rescans: [Double] = []
  var visible: [Double] = []
  let errors = scratch.file("daemon.err")
  for round in 0..<(arguments.smoke ? 2 : 10) {
    let title = "Edited \(round)"
    let written = monotonicNow()
    try Data(event(0, hours: 1, summary: title).utf8).write(to: URL(fileURLWithPath: vdir + "/e0.ics"))
    let deadline = written + 10
    var seen = false
    while monotonicNow() < deadline {
      let log = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      // (A rescan that found nothing new, as one woken by the truncation before the write
      // on a loaded machine, does not count.)
      let lines = log.components(separatedBy: "\n").filter {
        $0.contains("calendars rescanned in ") && $0.contains("1 scheduled")
      }
      if lines.count > round {
        visible.append(monotonicNow() - written)
        let text = lines[round].components(separatedBy: "calendars rescanned in ")[1]
        rescans.append((Double(text.components(separatedBy: " ms")[0]) ?? .nan) / 1000)
        seen = true
        break
      }
      usleep(2000)
    }
    guard seen else {
      let log = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      var watches = ""
      for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fdinfo")) ?? [] {
        let info = (try? String(contentsOfFile: "/proc/\(daemon.pid)/fdinfo/\(fd)", encoding: .utf8)) ?? ""
        if info.contains("inotify wd") {
          watches += "fd \(fd):\n" + info.split(separator: "\n").prefix(8).joined(separator: "\n") + "\n"
        }
      }
      let state =
        (try? String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8))?.split(separator: "\n")
        .first { $0.hasPrefix("State") } ?? ""
      throw BenchError(
        "the daemon did not reschedule the changed file within 10 s; its log:\n\(log.suffix(2000))\n\(state)\n\(watches)"
      )
    }
    settle(daemon.pid)
  }
  _ = daemon.stop()

  let added = max(0, rss - bareRSS)
  let rescan = Stats.median(rescans)
  print("### Calendars: a vdir folder of \(count) events with alarms")
  print()
  print(Format.header(["", "figure", "target"]))
  print(
    Format.row([
      "`notify calendar add` (process start to exit)", Format.duration(addTook),
      "read in <= 1 s: \(Format.verdict(addTook <= 1))",
    ]))
  print(
    Format.row([
      "daemon start to READY, with it / without", "\(Format.duration(start)) / \(Format.duration(bareStart))",
      "",
    ]))
  print(
    Format.row([
      "daemon RSS with it / without", "\(Format.mebibytes(rss)) / \(Format.mebibytes(bareRSS))",
      "adds <= 5 MiB: \(Format.verdict(added <= 5 * 1024))",
    ]))
  print(
    Format.row([
      "one changed file: the rescan (median of \(rescans.count))", Format.duration(rescan),
      "<= 20 ms: \(Format.verdict(rescan <= 0.020))",
    ]))
  print(
    Format.row([
      "one changed file: write to rescheduled (median)", Format.duration(Stats.median(visible)),
      "within 1 s: \(Format.verdict(Stats.median(visible) <= 1))",
    ]))
  print(
    Format.row([
      "idle wake-ups per minute while watching (\(Int(window)) s)", String(format: "%.1f", wakeups),
      "0: \(Format.verdict(wakeups == 0))",
    ]))
  if before < 0 || after < 0 { throw BenchError("the daemon died during the window") }
}
