// Idle cost of `notify daemon` against APScheduler 3.x (SQLAlchemy SQLite job store), both
// holding 64 notifications an hour away, measured side by side over the same window:
// wake-ups per minute (voluntary + involuntary context switches of all threads, from
// /proc/PID/task/*/status) and resident memory (VmRSS). See BENCHMARKS.md. `--python none`
// measures the daemon alone (Benchmarks/firing-table.sh).
//   usage: idle-cost --notify PATH --python PATH|none --peer apscheduler_peer.py [--window S] [--count N] [--smoke]
import BenchSupport
import Foundation
import Glibc

/// One idle process under watch.
struct Watched {
  var name: String
  var child: Child
  var before = 0
  var after = 0
  var rss = 0
  var perMinute: Double = 0
}

runHarness("idle-cost") {
  let arguments = Arguments()
  let notify = arguments.string("--notify", "../.build/release/notify")
  let python = arguments.string("--python", ".venv/bin/python")
  let peer = arguments.string("--peer", "peers/apscheduler_peer.py")
  let window = arguments.seconds("--window", arguments.smoke ? 5 : 60)
  let count = arguments.int("--count", 64)
  let scratch = ScratchFolder(prefix: "notify-idle")
  let db = scratch.file("notify.db")
  var environment = ProcessInfo.processInfo.environment
  for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_DB", "WATCHDOG_USEC"] { environment[key] = nil }

  // 64 notifications an hour away, scheduled as a user would.
  for i in 0..<count {
    let status = try Child.run(
      [
        notify, "schedule", "--db", db, "--app", "idle", "--id", "n\(i)", "--in", "1h\(i + 1)s", "--title",
        "idle \(i)",
      ],
      environment: environment)
    guard status == 0 else { throw BenchError("notify schedule exited \(status)") }
  }
  let ready = try ReadySocket(path: scratch.file("notify.sock"))
  environment["NOTIFY_SOCKET"] = ready.path
  let daemon = try Child(
    [notify, "daemon", "--sink", "stdout", "--db", db], environment: environment,
    stdout: .file(scratch.file("daemon.out")), stderr: scratch.file("daemon.err"))
  guard ready.wait(timeout: 30) else { throw BenchError("notify daemon sent no READY=1 within 30 s") }
  environment["NOTIFY_SOCKET"] = nil
  ready.close()
  var watched = [Watched(name: "notify daemon", child: daemon)]
  if python != "none" {
    let scheduler = try Child(
      [python, peer, "idle", scratch.file("apscheduler.db"), "\(count)"], environment: environment,
      stdout: .pipe,
      stderr: scratch.file("apscheduler.err"))
    var line = [UInt8](repeating: 0, count: 64)
    guard read(scheduler.output!, &line, line.count) > 0 else {
      throw BenchError("APScheduler did not start (see the venv; \(scratch.file("apscheduler.err")))")
    }
    watched.append(Watched(name: "APScheduler 3 + SQLite", child: scheduler))
  }

  // Let start-up work finish: counters still for a whole second (at most 20 s).
  let settleDeadline = monotonicNow() + 20
  while monotonicNow() < settleDeadline {
    let first = watched.map { ProcessStats.contextSwitches($0.child.pid) ?? -1 }
    usleep(1_000_000)
    if first == watched.map({ ProcessStats.contextSwitches($0.child.pid) ?? -1 }) { break }
  }
  for i in watched.indices { watched[i].before = ProcessStats.contextSwitches(watched[i].child.pid) ?? -1 }
  usleep(UInt32(window * 1e6))
  for i in watched.indices {
    let pid = watched[i].child.pid
    watched[i].after = ProcessStats.contextSwitches(pid) ?? -1
    watched[i].rss = ProcessStats.residentKiB(pid) ?? 0
    watched[i].perMinute = Double(watched[i].after - watched[i].before) / window * 60
  }
  for w in watched { w.child.stop() }

  print("### Idle cost: \(count) pending an hour away, \(Int(window)) s window")
  print()
  print(Format.header(["", "wake-ups per minute", "RSS"]))
  for w in watched {
    print(Format.row([w.name, String(format: "%.1f", w.perMinute), Format.mebibytes(w.rss)]))
  }
  let ours = watched[0]
  let peerRatio = watched.count > 1 ? Double(watched[1].rss) / Double(ours.rss) : .nan
  print()
  print(
    (watched.count > 1 ? "RSS ratio APScheduler/notify: \(Format.ratio(peerRatio)); " : "")
      + "targets: 0 wake-ups (\(Format.verdict(ours.perMinute == 0))), RSS < 16 MiB (\(Format.verdict(ours.rss < 16 * 1024)))"
  )
  if watched.contains(where: { $0.before < 0 || $0.after < 0 }) {
    throw BenchError("a process died during the window")
  }
}
