// Fire latency of `notify daemon --sink stdout` (due instant to the line arriving on a
// pipe) over COUNT occurrences, against sd-event-floor measured the same way in the same
// run, and (with --apscheduler) against APScheduler 3 with its SQLAlchemy SQLite job store,
// whose jobs write their index the way the floor does. With --repeats N each system is
// measured N times, interleaved, and the table gives the median of each figure over the
// repeats. See BENCHMARKS.md.
//   usage: fire-latency [--notify PATH] [--floor PATH] [--count N] [--spacing-ms MS]
//                       [--apscheduler PYTHON --peer apscheduler_peer.py] [--repeats N]
import Foundation
import Glibc

/// Prints on stderr.
func warn(_ text: String) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

struct Options {
  var notify = "../.build/release/notify"
  var floor = ".build/release/sd-event-floor"
  var count = 1000
  var spacing = 0.015
  var workers = 4
  /// The venv's python with APScheduler 3 and SQLAlchemy; nil leaves the peer out.
  var apscheduler: String?
  var peer = "peers/apscheduler_peer.py"
  var repeats = 1

  init(_ arguments: [String]) {
    var rest = arguments.dropFirst()
    while let flag = rest.popFirst() {
      let value = rest.popFirst() ?? ""
      switch flag {
      case "--notify": notify = value
      case "--floor": floor = value
      case "--count": count = Int(value) ?? count
      case "--spacing-ms": spacing = (Double(value) ?? 15) / 1000
      case "--workers": workers = Int(value) ?? workers
      case "--apscheduler": apscheduler = value
      case "--peer": peer = value
      case "--repeats": repeats = max(1, Int(value) ?? repeats)
      default:
        warn("fire-latency: unknown option \(flag)\n")
        exit(64)
      }
    }
  }
}

/// CLOCK_REALTIME now, in seconds.
func realNow() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_REALTIME, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Starts `path arguments` with stdout on a pipe; returns the process and the read end.
func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
  Process, FileHandle
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  try process.run()
  return (process, pipe.fileHandleForReading)
}

/// Reads lines until `count` have come, stamping each read's arrival; returns
/// (line, arrival) pairs. A read that brings several lines stamps them all alike.
func readLines(_ handle: FileHandle, count: Int, deadline: Double) -> [(String, Double)] {
  var out: [(String, Double)] = []
  var pending = ""
  let fd = handle.fileDescriptor
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while out.count < count, realNow() < deadline {
    let n = read(fd, &buffer, buffer.count)
    let at = realNow()
    if n <= 0 { break }
    pending += String(decoding: buffer[..<n], as: UTF8.self)
    while let newline = pending.firstIndex(of: "\n") {
      out.append((String(pending[..<newline]), at))
      pending = String(pending[pending.index(after: newline)...])
    }
  }
  return out
}

struct Figures {
  var name: String
  var latencies: [Double]  // seconds
  func percentile(_ p: Double) -> Double {
    let sorted = latencies.sorted()
    return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
  }
  var p50: Double { percentile(0.50) }
  var p99: Double { percentile(0.99) }
  var max: Double { latencies.max() ?? .nan }
  var min: Double { latencies.min() ?? .nan }
}

func micro(_ seconds: Double) -> String { String(format: "%.0f µs", seconds * 1e6) }

let options = Options(CommandLine.arguments)
for path in [options.notify, options.floor] where !FileManager.default.isExecutableFile(atPath: path) {
  warn("fire-latency: no executable at \(path); build it first (see BENCHMARKS.md)\n")
  exit(66)
}

// 1. The floor.
func measureFloor() throws -> Figures {
  let floorStart = realNow() + 1
  let (floorProcess, floorOut) = try spawn(
    options.floor,
    ["\(UInt64(floorStart * 1e6))", "\(UInt64(options.spacing * 1e6))", "\(options.count)"])
  let floorLines = readLines(
    floorOut, count: options.count, deadline: floorStart + Double(options.count) * options.spacing + 10)
  floorProcess.waitUntilExit()
  return Figures(
    name: "sd-event floor",
    latencies: floorLines.compactMap { line, at in
      Int(line).map { at - (floorStart + Double($0) * options.spacing) }
    })
}

// 2. The daemon: schedule COUNT one-shot notifications (16 apps, under the 64 limit), then run it.
nonisolated(unsafe) var failed = 0
func measureDaemon() throws -> Figures {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-bench-\(getpid())").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let db = folder + "/notify.db"
  let environment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    environment["NOTIFY_DB"] = db
    environment["JOURNAL_STREAM"] = nil
    environment["INVOCATION_ID"] = nil
    environment["NOTIFY_SOCKET"] = nil
    return environment
  }()
  // Create the store first, so that the parallel schedulers below share an existing file.
  let create = Process()
  create.executableURL = URL(fileURLWithPath: options.notify)
  create.arguments = ["list"]
  create.environment = environment
  create.standardOutput = FileHandle.nullDevice
  try create.run()
  create.waitUntilExit()
  // Scheduling takes a while; start firing once it is surely done.
  let cores = Double(Swift.max(1, Swift.min(options.workers, ProcessInfo.processInfo.activeProcessorCount)))
  let scheduleEstimate = Double(options.count) * 0.04 / cores + 3
  // Whole milliseconds, as --at and the store keep instants.
  let daemonStart = ((realNow() + scheduleEstimate) * 1000).rounded(.up) / 1000
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = options.workers
  let failures = NSLock()
  failed = 0
  for i in 0..<options.count {
    let at = formatter.string(from: Date(timeIntervalSince1970: daemonStart + Double(i) * options.spacing))
    let notify = options.notify
    queue.addOperation { [environment] in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: notify)
      process.arguments = [
        "schedule", "--app", "bench\(i % 16)", "--id", "b\(i)", "--at", at, "--title", "bench \(i)",
      ]
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      try? process.run()
      process.waitUntilExit()
      if process.terminationStatus != 0 { failures.withLock { failed += 1 } }
    }
  }
  queue.waitUntilAllOperationsAreFinished()
  guard failed == 0, realNow() < daemonStart - 0.5 else {
    warn("fire-latency: scheduling failed (\(failed)) or took longer than \(scheduleEstimate) s\n")
    exit(75)
  }
  let (daemon, daemonOut) = try spawn(
    options.notify, ["daemon", "--sink", "stdout"], environment: environment)
  let daemonLines = readLines(
    daemonOut, count: options.count, deadline: daemonStart + Double(options.count) * options.spacing + 10)
  daemon.terminate()
  daemon.waitUntilExit()
  return Figures(
    name: "notify daemon",
    latencies: daemonLines.compactMap { line, at in
      guard let range = line.range(of: "\"id\":\"b"),
        let end = line[range.upperBound...].firstIndex(of: "\""),
        let i = Int(line[range.upperBound..<end])
      else { return nil }
      return at - (daemonStart + Double(i) * options.spacing)
    })
}

// 3. APScheduler 3 with the SQLAlchemy job store on SQLite: the script stores COUNT date
// jobs, then starts the scheduler; each job writes its index, read like the floor's lines.
func measureAPScheduler(python: String) throws -> Figures {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apscheduler-bench-\(getpid())")
    .path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  // The script picks the first due instant itself once Python and SQLAlchemy are loaded
  // (storing a job takes about a millisecond) and says it on its first line.
  let (process, output) = try spawn(
    python,
    [
      options.peer, "latency", folder + "/jobs.db", "auto", "\(UInt64(options.spacing * 1e6))",
      "\(options.count)",
    ])
  let first = readLines(output, count: 1, deadline: realNow() + 60)
  guard let announced = first.first?.0, announced.hasPrefix("start "),
    let micros = Double(announced.dropFirst(6))
  else {
    process.waitUntilExit()
    warn("fire-latency: APScheduler did not start (exit \(process.terminationStatus))\n")
    return Figures(name: "APScheduler 3 + SQLite", latencies: [])
  }
  let start = micros / 1e6
  let lines = readLines(
    output, count: options.count, deadline: start + Double(options.count) * options.spacing + 10)
  process.waitUntilExit()
  if process.terminationStatus == 75 { warn("fire-latency: APScheduler took too long to store its jobs\n") }
  return Figures(
    name: "APScheduler 3 + SQLite",
    latencies: lines.compactMap { line, at in Int(line).map { at - (start + Double($0) * options.spacing) } })
}

/// The median over repeats of each figure, as one row.
struct Summary {
  var name: String
  /// Rounds that produced figures (a failed round is reported by the count check below).
  var rounds: [Figures]
  init(name: String, rounds: [Figures]) {
    self.name = name
    self.rounds = rounds.filter { !$0.latencies.isEmpty }
    failed = rounds.count - self.rounds.count
  }
  var failed: Int
  var n: Int { rounds.map(\.latencies.count).min() ?? 0 }
  func median(_ figure: (Figures) -> Double) -> Double {
    let values = rounds.map(figure).sorted()
    guard !values.isEmpty else { return .nan }
    return values.count % 2 == 1
      ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
  }
  var p50: Double { median(\.p50) }
  var p99: Double { median(\.p99) }
  var max: Double { median(\.max) }
  var min: Double { median(\.min) }
}

var floorRounds: [Figures] = []
var daemonRounds: [Figures] = []
var peerRounds: [Figures] = []
for round in 1...options.repeats {
  if options.repeats > 1 { warn("fire-latency: round \(round) of \(options.repeats)\n") }
  floorRounds.append(try measureFloor())
  daemonRounds.append(try measureDaemon())
  if let python = options.apscheduler { peerRounds.append(try measureAPScheduler(python: python)) }
}
let floor = Summary(name: "sd-event floor", rounds: floorRounds)
let daemonFigures = Summary(name: "notify daemon", rounds: daemonRounds)
let peer = Summary(name: "APScheduler 3 + SQLite", rounds: peerRounds)

// 4. Report.
print(
  "fire latency, due instant -> line read from the pipe; \(options.count) occurrences \(Int(options.spacing * 1000)) ms apart"
    + (options.repeats > 1 ? "; median of \(options.repeats) repeats" : ""))
print("| | n | min | p50 | p99 | max |")
print("|---|---|---|---|---|---|")
for f in [floor, daemonFigures] + (peerRounds.isEmpty ? [] : [peer]) {
  print("| \(f.name) | \(f.n) | \(micro(f.min)) | \(micro(f.p50)) | \(micro(f.p99)) | \(micro(f.max)) |")
}
print(
  String(
    format: "p50 ratio daemon/floor: %.2fx (target <= 1.5x); daemon p99 %@ (target < 2 ms)",
    daemonFigures.p50 / floor.p50, micro(daemonFigures.p99)))
if !peerRounds.isEmpty {
  print(
    String(
      format: "p50 ratio APScheduler/daemon: %.1fx (target >= 3x); p99 ratio %.1fx",
      peer.p50 / daemonFigures.p50, peer.p99 / daemonFigures.p99))
}
if options.repeats > 1 {
  for s in [floor, daemonFigures] + (peerRounds.isEmpty ? [] : [peer]) {
    print("\(s.name) p50 per repeat: \(s.rounds.map { micro($0.p50) }.joined(separator: ", "))")
  }
}
if daemonFigures.n != options.count || floor.n != options.count
  || (!peerRounds.isEmpty && peer.n != options.count) || floor.failed + daemonFigures.failed + peer.failed > 0
{
  warn(
    "fire-latency: missing deliveries (floor \(floor.n), daemon \(daemonFigures.n), APScheduler \(peer.n))\n")
  exit(1)
}
