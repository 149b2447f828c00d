// Fire latency of `notify daemon --sink stdout` (due instant to the line arriving on a
// pipe) against sd-event-floor measured the same way in the same run, and (with
// --apscheduler) against APScheduler 3 with its SQLAlchemy SQLite job store, whose jobs
// write their index the way the floor does. COUNT instants SPACING apart; at each, BURST
// occurrences are due at the same instant (default 1). With --repeats N each system is
// measured N times, interleaved, and the table gives the median of each figure over the
// repeats. See BENCHMARKS.md.
//   usage: fire-latency [--notify PATH] [--floor PATH] [--count INSTANTS] [--burst B]
//                       [--spacing-ms MS] [--apscheduler PYTHON --peer apscheduler_peer.py]
//                       [--repeats N] [--workers N] [--raw FILE] [--summary FILE]
//                       [--schedule-with command|library] [--flood "COMMAND ARG..."]
// --spacing-ms defaults to 15 for single arrivals and 1000 for bursts. With --burst 1 the
// daemon's store is filled by `notify schedule` processes (--workers at a time) unless
// --schedule-with library says otherwise (faster on a busy machine); with
// bursts, through the library (`SQLiteStore.schedule`, what `notify schedule` runs), as
// thousands of processes would take minutes. --raw appends one line per delivery
// (system, round, index, latency in µs) to FILE, for a closer look. --summary appends one
// tab-separated line per round with the floor's and the daemon's figures of that round
// (Benchmarks/firing_table.py reads it: ratios are taken round by round, then their median).
// --flood adds a third system to each round: the daemon again, while COMMAND (split at
// spaces; `Benchmarks/scheduler-bus/flood.py REPORT`) floods its D-Bus service with
// `Schedule` calls for another app. The environment must give the daemon a session bus and
// NOTIFY_SCHEDULER=on (`Benchmarks/scheduler-bus.sh` does). COMMAND gets SIGTERM at the
// round's end and writes to its first argument, REPORT, a JSON object with `first` (its
// first call, CLOCK_REALTIME seconds) and `calls`; instants due before `first` are left
// out of the flooded figures.
import BenchSupport
import Foundation
import Glibc
import Notify
import NotifyCore
import NotifyStore
import NotifyZones

struct Options {
  var notify = "../.build/release/notify"
  var floor = ".build/release/sd-event-floor"
  /// Instants; each has `burst` occurrences.
  var count = 1000
  var burst = 1
  var spacing: Double
  var workers = 4
  /// The venv's python with APScheduler 3 and SQLAlchemy; nil leaves the peer out.
  var apscheduler: String?
  var peer = "peers/apscheduler_peer.py"
  var repeats = 1
  var raw: String?
  var summary: String?
  /// Whether the store is filled by `notify schedule` processes (false: through the library).
  var scheduleWithCommand: Bool?
  /// The flooding client and its arguments; nil leaves the flooded daemon out.
  var flood: [String]?

  /// Occurrences in all.
  var total: Int { count * burst }
  /// Whether `notify schedule` processes fill the store.
  var byCommand: Bool { scheduleWithCommand ?? (burst == 1) }

  init(_ arguments: [String]) {
    var rest = arguments.dropFirst()
    var spacingMilliseconds: Double?
    while let flag = rest.popFirst() {
      let value = rest.popFirst() ?? ""
      switch flag {
      case "--notify": notify = value
      case "--floor": floor = value
      case "--count": count = max(1, Int(value) ?? count)
      case "--burst": burst = max(1, Int(value) ?? burst)
      case "--spacing-ms": spacingMilliseconds = Double(value)
      case "--workers": workers = Int(value) ?? workers
      case "--apscheduler": apscheduler = value
      case "--peer": peer = value
      case "--repeats": repeats = max(1, Int(value) ?? repeats)
      case "--raw": raw = value
      case "--summary": summary = value
      case "--schedule-with": scheduleWithCommand = value == "command"
      case "--flood": flood = value.split(separator: " ").map(String.init)
      default:
        warn("fire-latency: unknown option \(flag)")
        exit(64)
      }
    }
    spacing = (spacingMilliseconds ?? (burst == 1 ? 15 : 1000)) / 1000
  }

  /// When the instant of occurrence `index` is due, counting from `start`.
  func due(_ index: Int, from start: Double) -> Double { start + Double(index / burst) * spacing }
}

/// One round of one system: the latency of each delivery that came, by occurrence index.
struct Figures {
  var samples: [(index: Int, latency: Double)]
  /// Per instant whose burst came whole: due instant to its last line.
  var lastOfBurst: [Double]
  var latencies: [Double] { samples.map(\.latency) }

  init(samples: [(index: Int, latency: Double)], burst: Int) {
    self.samples = samples
    var last: [Int: (count: Int, latency: Double)] = [:]
    for sample in samples {
      let previous = last[sample.index / burst] ?? (0, -.infinity)
      last[sample.index / burst] = (previous.count + 1, max(previous.latency, sample.latency))
    }
    lastOfBurst = last.values.filter { $0.count == burst }.map(\.latency)
  }

  /// The `p` quantile, the element at rank floor(n * p) (as in the first version of this
  /// harness, so figures stay comparable); nan when empty.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
  }
}

let options = Options(CommandLine.arguments)
for path in [options.notify, options.floor] where !FileManager.default.isExecutableFile(atPath: path) {
  warn("fire-latency: no executable at \(path); build it first (see BENCHMARKS.md)")
  exit(66)
}

/// Latencies of lines that start with an occurrence index (the floor's and APScheduler's).
func indexed(_ lines: [(line: String, at: Double)], start: Double) -> Figures {
  Figures(
    samples: lines.compactMap { line, at in
      Int(line).map { ($0, at - options.due($0, from: start)) }
    }, burst: options.burst)
}

/// Waits for all lines of the run: the last instant plus time for a slow system's burst.
func lastLineDeadline(start: Double) -> Double {
  options.due(options.total - 1, from: start) + 10 + Double(options.burst) * 0.01
}

// 1. The floor: one sd-event timer, BURST writes per wake-up.
func measureFloor() throws -> Figures {
  let start = realNow() + 1
  let floor = try Child(
    [
      options.floor, "\(UInt64(start * 1e6))", "\(UInt64(options.spacing * 1e6))", "\(options.count)",
      "\(options.burst)",
    ], stdout: .pipe)
  let lines = LineReader(fd: floor.output!).read(
    count: options.total, deadline: lastLineDeadline(start: start))
  floor.wait()
  return indexed(lines, start: start)
}

// 2. The daemon on a store holding the occurrences (64 per app, so the limit discards nothing).
func app(_ index: Int) -> String { "bench\(index / 64)" }

nonisolated(unsafe) var failedSchedules = 0

/// Fills the store with `notify schedule` processes, `options.workers` at a time.
func scheduleWithCommand(firstDue: Double, environment: [String: String]) throws {
  // Create the store first, so that the parallel schedulers below share an existing file.
  try Child.run([options.notify, "list"], environment: environment)
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = options.workers
  let failures = NSLock()
  failedSchedules = 0
  for i in 0..<options.total {
    let at = RFC3339.string(
      from: Date(timeIntervalSince1970: options.due(i, from: firstDue)), milliseconds: true)
    queue.addOperation {
      let status = try? Child.run(
        [options.notify, "schedule", "--app", app(i), "--id", "b\(i)", "--at", at, "--title", "bench \(i)"],
        environment: environment)
      if status != 0 { failures.withLock { failedSchedules += 1 } }
    }
  }
  queue.waitUntilAllOperationsAreFinished()
  if failedSchedules > 0 {
    throw BenchError("fire-latency: \(failedSchedules) `notify schedule` runs failed")
  }
}

/// Fills the store through the library, one transaction per notification as the command does.
func scheduleWithLibrary(firstDue: Double, db: String) throws {
  // The setup, not what is measured: its commits are synced once at the end, not each.
  let store = try SQLiteStore(path: db, durability: .whenSynced)
  let zones = SystemClock().zones
  for i in 0..<options.total {
    let n = LocalNotification(
      id: "b\(i)", app: app(i),
      schedule: Schedule(fireDate: .instant(Date(timeIntervalSince1970: options.due(i, from: firstDue)))),
      title: "bench \(i)", createdAt: Date())
    let outcome = try store.schedule(n, zones: zones)
    guard outcome.discarded.isEmpty else {
      throw BenchError("fire-latency: the 64 limit discarded in \(n.app)")
    }
  }
  try store.sync()
}

/// What the flooding client said it did in one round.
struct FloodReport {
  var calls = 0
  var seconds = 0.0
}

func measureDaemon(flood: [String]? = nil, report: inout FloodReport) throws -> Figures {
  let scratch = ScratchFolder(prefix: "notify-bench")
  let db = scratch.file("notify.db")
  var environment = ProcessInfo.processInfo.environment
  for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_SOCKET", "WATCHDOG_USEC"] { environment[key] = nil }
  environment["NOTIFY_DB"] = db
  // Scheduling takes a while; start firing once it is surely done. Whole milliseconds, as
  // --at and the store keep instants.
  let cores = Double(max(1, min(options.workers, ProcessInfo.processInfo.activeProcessorCount)))
  let estimate =
    options.byCommand ? Double(options.total) * 0.04 / cores + 3 : Double(options.total) * 0.002 + 4
  let start = ((realNow() + estimate) * 1000).rounded(.up) / 1000
  if options.byCommand {
    try scheduleWithCommand(firstDue: start, environment: environment)
  } else {
    try scheduleWithLibrary(firstDue: start, db: db)
  }
  guard realNow() < start - 0.5 else {
    throw BenchError("fire-latency: scheduling took longer than \(estimate) s")
  }
  let daemon = try Child(
    [options.notify, "daemon", "--sink", "stdout"], environment: environment, stdout: .pipe,
    stderr: scratch.file("daemon.err"))
  // The flooding client starts calling as soon as the daemon owns its bus name.
  let floodReport = scratch.file("flood.json")
  let flooder = try flood.map { command in
    try Child(command + [floodReport], environment: environment, stderr: scratch.file("flood.err"))
  }
  let lines = LineReader(fd: daemon.output!).read(
    count: options.total, deadline: lastLineDeadline(start: start))
  var floodStart = -Double.infinity
  if let flooder {
    flooder.stop()
    guard let data = FileManager.default.contents(atPath: floodReport),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let first = object["first"] as? Double, let calls = object["calls"] as? Int
    else {
      daemon.stop()
      throw BenchError("fire-latency: the flooding client reported nothing (\(scratch.file("flood.err")))")
    }
    floodStart = first
    report.calls += calls
    report.seconds += object["seconds"] as? Double ?? 0
  }
  daemon.stop()
  return Figures(
    samples: lines.compactMap { line, at in
      guard let range = line.range(of: "\"id\":\"b"),
        let end = line[range.upperBound...].firstIndex(of: "\""),
        let i = Int(line[range.upperBound..<end])
      else { return nil }
      let due = options.due(i, from: start)
      // Flooded figures count the instants the flood was on for.
      return due < floodStart ? nil : (i, at - due)
    }, burst: options.burst)
}

// 3. APScheduler 3 with the SQLAlchemy job store on SQLite: the script stores the date
// jobs, then starts the scheduler; each job writes its index, read like the floor's lines.
func measureAPScheduler(python: String) throws -> Figures {
  let scratch = ScratchFolder(prefix: "apscheduler-bench")
  // The script picks the first due instant itself once Python and SQLAlchemy are loaded
  // (storing a job takes about a millisecond) and says it on its first line.
  let process = try Child(
    [
      python, options.peer, "latency", scratch.file("jobs.db"), "auto", "\(UInt64(options.spacing * 1e6))",
      "\(options.count)", "\(options.burst)",
    ], stdout: .pipe, stderr: scratch.file("peer.err"))
  let reader = LineReader(fd: process.output!)
  let first = reader.read(count: 1, deadline: realNow() + 60 + Double(options.total) * 0.01)
  guard let announced = first.first?.line, announced.hasPrefix("start "),
    let micros = Double(announced.dropFirst(6))
  else {
    let status = process.stop()
    warn("fire-latency: APScheduler did not start (exit \(status))")
    return Figures(samples: [], burst: options.burst)
  }
  let start = micros / 1e6
  let lines = reader.read(count: options.total, deadline: lastLineDeadline(start: start))
  if process.wait() == 75 { warn("fire-latency: APScheduler took too long to store its jobs") }
  return indexed(lines, start: start)
}

/// The median over repeats of each figure, as one row.
struct Summary {
  var name: String
  /// Rounds that produced figures (a failed round is reported by the count check below).
  var rounds: [Figures]
  var failed: Int

  init(name: String, rounds: [Figures]) {
    self.name = name
    self.rounds = rounds.filter { !$0.samples.isEmpty }
    failed = rounds.count - self.rounds.count
  }

  var n: Int { rounds.map(\.samples.count).min() ?? 0 }
  func median(_ figure: (Figures) -> Double) -> Double { Stats.median(rounds.map(figure)) }
  func median(of p: Double) -> Double { median { Figures.percentile($0.latencies, p) } }
  var min: Double { median { $0.latencies.min() ?? .nan } }
  var p50: Double { median(of: 0.50) }
  var p99: Double { median(of: 0.99) }
  var max: Double { median { $0.latencies.max() ?? .nan } }
  var lastOfBurstP50: Double { median { Figures.percentile($0.lastOfBurst, 0.5) } }
  var lastOfBurstMax: Double { median { $0.lastOfBurst.max() ?? .nan } }
}

/// Appends one line per round to `path` (a header first when the file is new): the round's
/// p50, p99 and last-of-burst max of the floor and the daemon, in µs, and their counts.
func appendSummary(to path: String, floor: Summary, daemon: Summary) throws {
  let columns = [
    "burst", "instants", "spacing_ms", "round", "floor_n", "floor_p50_us", "floor_p99_us",
    "floor_last_max_us",
    "daemon_n", "daemon_p50_us", "daemon_p99_us", "daemon_last_max_us",
  ]
  var text = FileManager.default.fileExists(atPath: path) ? "" : columns.joined(separator: "\t") + "\n"
  func figures(_ f: Figures) -> [String] {
    ["\(f.samples.count)"]
      + [
        Figures.percentile(f.latencies, 0.5), Figures.percentile(f.latencies, 0.99),
        f.lastOfBurst.max() ?? .nan,
      ]
      .map { String(format: "%.1f", $0 * 1e6) }
  }
  for (round, (f, d)) in zip(floor.rounds, daemon.rounds).enumerated() {
    let cells =
      ["\(options.burst)", "\(options.count)", "\(Int(options.spacing * 1000))", "\(round + 1)"] + figures(f)
      + figures(d)
    text += cells.joined(separator: "\t") + "\n"
  }
  guard
    let handle = FileHandle(forWritingAtPath: path)
      ?? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
      }()
  else { throw BenchError("fire-latency: cannot write \(path)") }
  handle.seekToEndOfFile()
  handle.write(Data(text.utf8))
  handle.closeFile()
}

runHarness("fire-latency") {
  var floorRounds: [Figures] = []
  var daemonRounds: [Figures] = []
  var peerRounds: [Figures] = []
  var floodedRounds: [Figures] = []
  var flooding = FloodReport()
  for round in 1...options.repeats {
    if options.repeats > 1 { warn("fire-latency: round \(round) of \(options.repeats)") }
    floorRounds.append(try measureFloor())
    var none = FloodReport()
    daemonRounds.append(try measureDaemon(report: &none))
    if let flood = options.flood { floodedRounds.append(try measureDaemon(flood: flood, report: &flooding)) }
    if let python = options.apscheduler { peerRounds.append(try measureAPScheduler(python: python)) }
  }
  let floor = Summary(name: "sd-event floor", rounds: floorRounds)
  let daemon = Summary(name: "notify daemon", rounds: daemonRounds)
  let peer = Summary(name: "APScheduler 3 + SQLite", rounds: peerRounds)
  let flooded = Summary(name: "notify daemon, its service flooded", rounds: floodedRounds)
  let systems =
    [floor, daemon] + (peerRounds.isEmpty ? [] : [peer]) + (floodedRounds.isEmpty ? [] : [flooded])

  if let raw = options.raw {
    var text = ""
    for system in systems {
      for (round, figures) in system.rounds.enumerated() {
        for sample in figures.samples {
          text +=
            "\(system.name)\t\(round + 1)\t\(sample.index)\t\(String(format: "%.1f", sample.latency * 1e6))\n"
        }
      }
    }
    let handle =
      FileHandle(forWritingAtPath: raw)
      ?? {
        FileManager.default.createFile(atPath: raw, contents: nil)
        return FileHandle(forWritingAtPath: raw)!
      }()
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    handle.closeFile()
  }

  if let summary = options.summary {
    try appendSummary(to: summary, floor: floor, daemon: daemon)
  }

  // 4. Report.
  let burst = options.burst > 1
  let what =
    burst
    ? "\(options.count) instants \(Int(options.spacing * 1000)) ms apart, \(options.burst) occurrences due at each"
    : "\(options.count) occurrences \(Int(options.spacing * 1000)) ms apart"
  print(
    "fire latency, due instant -> line read from the pipe; \(what)"
      + (options.repeats > 1 ? "; median of \(options.repeats) repeats" : ""))
  func micro(_ seconds: Double) -> String { String(format: "%.0f µs", seconds * 1e6) }
  if burst {
    print("| | n | min | p50 | p99 | max | last of burst p50 | last of burst max |")
    print("|---|---|---|---|---|---|---|---|")
  } else {
    print("| | n | min | p50 | p99 | max |")
    print("|---|---|---|---|---|---|")
  }
  for s in systems {
    let cells = [s.name, "\(s.n)", micro(s.min), micro(s.p50), micro(s.p99), micro(s.max)]
    print(Format.row(cells + (burst ? [micro(s.lastOfBurstP50), micro(s.lastOfBurstMax)] : [])))
  }
  print(
    String(
      format: "p50 ratio daemon/floor: %.2fx (target <= 1.5x); daemon p99 %@ (target < 2 ms)",
      daemon.p50 / floor.p50, micro(daemon.p99)))
  if burst {
    print(
      String(
        format: "last of burst, max: daemon %@, floor %@ (target for 1000 at one instant: <= 20 ms)",
        micro(daemon.lastOfBurstMax), micro(floor.lastOfBurstMax)))
  }
  if !peerRounds.isEmpty {
    print(
      String(
        format: "p50 ratio APScheduler/daemon: %.1fx (target >= 3x); p99 ratio %.1fx",
        peer.p50 / daemon.p50, peer.p99 / daemon.p99))
  }
  if !floodedRounds.isEmpty {
    print(
      String(
        format:
          "flooded/quiet daemon: p50 %.2fx, p99 %.2fx (unchanged: p50 within 1.2x); the flood: %d Schedule calls in %.0f s (%.0f calls/s)",
        flooded.p50 / daemon.p50, flooded.p99 / daemon.p99, flooding.calls, flooding.seconds,
        Double(flooding.calls) / Swift.max(flooding.seconds, 0.001)))
  }
  if options.repeats > 1 {
    for s in systems {
      print(
        "\(s.name) p50 per repeat: \(s.rounds.map { micro(Figures.percentile($0.latencies, 0.5)) }.joined(separator: ", "))"
      )
    }
  }
  // The flooded rounds leave out the instants due before the flood began.
  if systems.contains(where: { $0.failed > 0 || ($0.n != options.total && $0.name != flooded.name) })
    || (!floodedRounds.isEmpty && flooded.n < options.total * 3 / 4)
  {
    throw BenchError(
      "fire-latency: missing deliveries (floor \(floor.n), daemon \(daemon.n), APScheduler \(peer.n), flooded \(flooded.n) of \(options.total))"
    )
  }
}
