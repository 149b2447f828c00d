// Scale: APPS apps x PER_APP pending notifications (1000 x 64 = 64,000) in one store,
// scheduled through the library (`SQLiteStore.schedule`, one transaction each, the 64
// limit checked each time). At each checkpoint of the growing store it reports the
// schedule throughput since the previous one, the time of a next-fire lookup
// (`SQLiteStore.nextFireDate`, what the daemon asks on every wake-up) and the resident
// memory of `notify daemon` started on that store, how long it took to be ready, and its
// fire latency for a few notifications due among the crowd. See BENCHMARKS.md.
//   usage: scale --notify PATH [--apps N] [--per-app N] [--checkpoints 1000,4000,...] [--probes N]
//                [--keep FILE] [--smoke]
// --keep copies the grown store to FILE, to look into it afterwards.
import BenchSupport
import Foundation
import Notify
import NotifyCore
import NotifyStore
import NotifyZones

/// What one checkpoint measured.
struct Checkpoint {
  var size: Int
  var scheduleRate: Double
  var lookup: Double
  var daemonRSS: Int
  var daemonReady: Double
  var fireP50: Double
  var fireMax: Double
}

/// What the daemon did on the grown store.
struct DaemonFigures {
  var rss: Int
  var ready: Double
  var latencies: [Double]
}

/// The daemon on `db`: resident memory once READY=1 came and how long that took, then the
/// fire latency (due instant to its stdout line) of `probes` notifications scheduled beside
/// the crowd, due 20 ms apart.
func measureDaemon(
  notify: String, db: String, store: SQLiteStore, scratch: ScratchFolder, round: Int, probes: Int
) throws -> DaemonFigures {
  let ready = try ReadySocket(path: scratch.file("scale.sock"))
  var environment = ProcessInfo.processInfo.environment
  for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_DB", "WATCHDOG_USEC"] { environment[key] = nil }
  environment["NOTIFY_SOCKET"] = ready.path
  let start = monotonicNow()
  let daemon = try Child(
    [notify, "daemon", "--sink", "stdout", "--db", db], environment: environment, stdout: .pipe,
    stderr: scratch.file("daemon.err"))
  guard ready.wait(timeout: 120) else { throw BenchError("notify daemon sent no READY=1 within 120 s") }
  let elapsed = monotonicNow() - start
  ready.close()
  // Whatever start-up still does after READY (a status line) settles in a moment.
  usleep(300_000)
  let rss = ProcessStats.residentKiB(daemon.pid) ?? 0
  // Probes in an app of their own, whole milliseconds as the store keeps them.
  let first = ((realNow() + 0.5) * 1000).rounded(.up) / 1000
  let zones = SystemClock().zones
  for i in 0..<probes {
    let n = LocalNotification(
      id: "p\(round)-\(i)", app: "probe",
      schedule: Schedule(fireDate: .instant(Date(timeIntervalSince1970: first + Double(i) * 0.02))),
      title: "probe \(i)", createdAt: Date())
    _ = try store.schedule(n, zones: zones)
  }
  guard realNow() < first else { throw BenchError("scheduling the probes took longer than 0.5 s") }
  let lines = LineReader(fd: daemon.output!).read(count: probes, deadline: first + Double(probes) * 0.02 + 10)
  daemon.stop()
  let latencies = lines.compactMap { line, at -> Double? in
    guard let range = line.range(of: "\"id\":\"p\(round)-"),
      let end = line[range.upperBound...].firstIndex(of: "\""),
      let i = Int(line[range.upperBound..<end])
    else { return nil }
    return at - (first + Double(i) * 0.02)
  }
  guard latencies.count == probes else {
    let log = (try? String(contentsOfFile: scratch.file("daemon.err"), encoding: .utf8)) ?? ""
    throw BenchError(
      "only \(latencies.count) of \(probes) probes were delivered; the daemon said:\n\(log.suffix(3000))")
  }
  return DaemonFigures(rss: rss, ready: elapsed, latencies: latencies)
}

/// A spread of realistic notifications: one-shots over the next 30 days, a daily repeat
/// in every 8, a local wall-clock time in every 10 (they follow the system zone).
func notification(_ index: Int, apps: Int, now: Date) -> LocalNotification {
  let app = "app\(index % apps)"
  let id = "n\(index / apps)"
  let offset = 3600 + Double((index &* 7919) % 2_592_000)
  let fireDate: FireDate
  if index % 10 == 3 {
    let day = 1 + index % 28
    fireDate = .wallClock(WallClock(year: 2031, month: 1 + index % 12, day: day, hour: 9), .local)
  } else {
    fireDate = .instant(now + offset)
  }
  return LocalNotification(
    id: id, app: app,
    schedule: Schedule(fireDate: fireDate, repeatInterval: index % 8 == 0 ? .day : nil),
    title: "Reminder \(index)", body: "Body of notification \(index) in \(app)",
    userInfo: ["room": .string("r\(index % 100)")], createdAt: now)
}

runHarness("scale") {
  let arguments = Arguments()
  let notify = arguments.string("--notify", "../.build/release/notify")
  let apps = arguments.int("--apps", arguments.smoke ? 50 : 1000)
  let perApp = arguments.int("--per-app", arguments.smoke ? 20 : 64)
  let total = apps * perApp
  let checkpoints = arguments.string("--checkpoints", arguments.smoke ? "250,1000" : "1000,4000,16000,64000")
    .split(separator: ",").compactMap { Int($0) }.filter { $0 <= total }
  let probes = arguments.int("--probes", arguments.smoke ? 10 : 50)
  let scratch = ScratchFolder(prefix: "notify-scale")
  let db = scratch.file("notify.db")
  let store = try SQLiteStore(path: db)
  let zones = SystemClock().zones
  let now = Date()

  var results: [Checkpoint] = []
  var scheduled = 0
  for checkpoint in checkpoints {
    let batch = (scheduled..<checkpoint).map { notification($0, apps: apps, now: now) }
    let start = monotonicNow()
    for n in batch {
      let outcome = try store.schedule(n, zones: zones)
      guard outcome.discarded.isEmpty else { throw BenchError("the 64 limit discarded at \(n.app)/\(n.id)") }
    }
    let rate = Double(batch.count) / (monotonicNow() - start)
    scheduled = checkpoint
    // The lookup the daemon makes on every wake-up, median of 101 calls.
    var lookups: [Double] = []
    for _ in 0...100 {
      let t = monotonicNow()
      _ = try store.nextFireDate(zones: zones)
      lookups.append(monotonicNow() - t)
    }
    let daemon = try measureDaemon(
      notify: notify, db: db, store: store, scratch: scratch, round: results.count, probes: probes)
    results.append(
      Checkpoint(
        size: checkpoint, scheduleRate: rate, lookup: Stats.median(lookups), daemonRSS: daemon.rss,
        daemonReady: daemon.ready, fireP50: Stats.median(daemon.latencies),
        fireMax: daemon.latencies.max() ?? .nan))
  }

  let keep = arguments.string("--keep", "")
  if !keep.isEmpty {
    try? FileManager.default.removeItem(atPath: keep)
    try FileManager.default.copyItem(atPath: db, toPath: keep)
  }
  print("### Scale: \(apps) apps x \(perApp) pending in one store")
  print()
  print(
    Format.header([
      "pending", "schedule rate (since previous)", "nextFireDate", "daemon RSS", "daemon start to READY",
      "fire latency p50 / max (\(probes) probes)",
    ]))
  for r in results {
    print(
      Format.row([
        "\(r.size)", String(format: "%.0f /s", r.scheduleRate), Format.duration(r.lookup),
        Format.mebibytes(r.daemonRSS), Format.duration(r.daemonReady),
        "\(Format.duration(r.fireP50)) / \(Format.duration(r.fireMax))",
      ]))
  }
  if let first = results.first, let last = results.last, results.count > 1 {
    print()
    print(
      "from \(first.size) to \(last.size): schedule rate x\(String(format: "%.2f", last.scheduleRate / first.scheduleRate)), "
        + "lookup x\(String(format: "%.2f", last.lookup / first.lookup)), "
        + "daemon RSS x\(String(format: "%.2f", Double(last.daemonRSS) / Double(first.daemonRSS))), "
        + "start x\(String(format: "%.2f", last.daemonReady / first.daemonReady)), "
        + "fire latency p50 x\(String(format: "%.2f", last.fireP50 / first.fireP50))")
  }
}
