import Foundation
import GRDB
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Eight writers and two firers on one store at once (SPEC.md §3, §6, §9).
@Suite("Reliability: concurrency", .serialized, .ownThreads)
struct ConcurrencyTests {
  /// How long the writers write.
  static let duration: TimeInterval = 20
  /// How many notifications `lim`'s writers schedule at least: past the limit by enough to
  /// show which ones it keeps.
  static let limEnough = PendingLimit.maximum + 16

  /// What one writer did to one notification.
  struct Scheduled: Hashable, Sendable {
    enum Outcome: Hashable, Sendable {
      /// Stored (and possibly discarded later by the limit, or cancelled, or delivered).
      case stored
      /// The limit discarded the new one itself (exit 1): recorded as discarded.
      case discardedAtOnce
      /// Busy past the timeout (exit 75): must have left no trace, and is a failure of the
      /// test besides (`Ledger.problems`): this load is what the store is built for.
      case refused
    }
    var app: String
    var id: String
    var fireDate: Date
    var outcome: Outcome
  }

  /// Everything the writers did, shared between their threads.
  final class Ledger: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Scheduled] = []
    private var cancels: [(app: String, id: String, done: Bool)] = []
    private var limitViolations: [String] = []
    private var failures: [String] = []
    private var samples = 0
    func add(_ entry: Scheduled) { lock.withLock { entries.append(entry) } }
    /// A command or call that failed: busy (75) or anything else but its documented outcomes.
    func failed(_ what: String) { lock.withLock { failures.append(what) } }
    func cancelled(app: String, id: String, done: Bool) { lock.withLock { cancels.append((app, id, done)) } }
    func sampled(violation: String?) {
      lock.withLock {
        samples += 1
        if let violation { limitViolations.append(violation) }
      }
    }
    var scheduled: [Scheduled] { lock.withLock { entries } }
    var cancelCount: Int { lock.withLock { cancels.filter(\.done).count } }
    var violations: [String] { lock.withLock { limitViolations } }
    var problems: [String] { lock.withLock { failures } }
    var sampleCount: Int { lock.withLock { samples } }
    /// How many of `app`'s schedules were stored or discarded (not refused).
    func count(app: String) -> Int {
      lock.withLock { entries.filter { $0.app == app && $0.outcome != .refused }.count }
    }
    /// A stored id of `app` written by `writer`, to cancel.
    func randomStored(app: String, prefix: String) -> String? {
      lock.withLock {
        entries.filter { $0.app == app && $0.id.hasPrefix(prefix) && $0.outcome == .stored }.randomElement()?
          .id
      }
    }
  }

  @Test("8 writers and 2 firers for 20 s: 64 limit exact, no duplicates, history complete, integrity ok")
  func writersAndFirers() throws {
    // Given a fresh store and two firers on it: a daemon and fire-due run over and over
    let folder = TemporaryFolder(prefix: "notify-concurrency")
    let db = folder.file("notify.db")
    let utc = testZone("UTC")
    let mainStore = try SQLiteStore(path: db)
    // The limit, duplicates and history are this test's subject, not how fast a loaded disk
    // is: every process waits up to 120 s for the store (the busy timeout under load is
    // SlowDiskTests' subject), as the creators' and 8x50 tests do.
    let patient = ["NOTIFY_BUSY_TIMEOUT": "120"]
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon", environment: patient)
    let ledger = Ledger()
    let stop = Flag()
    let fireDueRuns = Counter()
    let group = DispatchGroup()
    let end = Date() + Self.duration
    // (fire-due runs in a loop; its outputs are kept per run)
    let fireDueOutputs = Collected<ChildProcess>()
    Self.thread(group) {
      while !stop.isSet {
        guard
          let run = try? ChildProcess.notify(
            ["fire-due", "--sink", "stdout"], db: db, folder: folder, name: "fire-due-\(fireDueRuns.next())",
            environment: patient)
        else { continue }
        fireDueOutputs.append(run)
        let status = run.waitExit(timeout: 60)
        if status != 0 { ledger.failed("fire-due exit \(status.map(String.init) ?? "none"): \(run.stderr)") }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    // (a monitor checks the 64 limit on every app, all the time)
    let inspector = try DatabaseQueue(path: db)
    Self.thread(group) {
      while !stop.isSet {
        let counts = try? inspector.read { db in
          try Row.fetchAll(
            db, sql: "SELECT app, count(*) AS n FROM notification WHERE next_fire_at IS NOT NULL GROUP BY app"
          )
        }
        let over = counts?.first { ($0["n"] as Int) > PendingLimit.maximum }
        ledger.sampled(violation: over.map { "\($0["app"] as String) had \($0["n"] as Int) pending" })
        Thread.sleep(forTimeInterval: 0.05)
      }
    }

    // When 8 writers write for 20 s: two library writers fill app `lim` with far-away
    // notifications (the limit discards the latest), two library writers and four CLI
    // writers schedule due-soon and far notifications in apps mix0-2 and cancel some
    for writer in 0..<4 {
      Self.thread(group) {
        let store: SQLiteStore
        do {
          store = try SQLiteStore(path: db, busyTimeout: 120)
        } catch {
          ledger.failed("library writer \(writer) could not open the store: \(error)")
          return
        }
        var serial = 0
        // (`lim`'s writers go on past `end` until the limit has had something to discard,
        // however slowly a loaded machine let them write)
        while Date() < end || (writer < 2 && ledger.count(app: "lim") <= Self.limEnough && Date() < end + 90)
        {
          serial += 1
          let app = writer < 2 ? "lim" : "mix\(serial % 3)"
          let id = "L\(writer)-\(serial)"
          if writer >= 2, serial % 5 == 0, let victim = ledger.randomStored(app: app, prefix: "L\(writer)-") {
            do {
              let missing = try store.cancel(app: app, ids: [victim], at: Date())
              ledger.cancelled(app: app, id: victim, done: missing.isEmpty)
            } catch {
              ledger.cancelled(app: app, id: victim, done: false)
              ledger.failed("library cancel \(app)/\(victim): \(error)")
            }
            continue
          }
          let fireDate = Self.fireDate(far: writer < 2 || serial % 2 == 0, end: end)
          let n = LocalNotification(
            id: id, app: app, schedule: Schedule(fireDate: .instant(fireDate)), title: "w\(writer) \(serial)",
            createdAt: Date())
          do {
            let outcome = try store.schedule(n, zones: testZones(utc))
            ledger.add(
              Scheduled(
                app: app, id: id, fireDate: fireDate,
                outcome: outcome.newOneDiscarded ? .discardedAtOnce : .stored))
          } catch let error as NotifyError where error.kind == .temporary {
            ledger.add(Scheduled(app: app, id: id, fireDate: fireDate, outcome: .refused))
            ledger.failed("library schedule \(app)/\(id): busy: \(error)")
          } catch {
            ledger.failed("library schedule \(app)/\(id): \(error)")
          }
          Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.03))
        }
      }
    }
    for writer in 4..<8 {
      Self.thread(group) {
        var serial = 0
        while Date() < end {
          serial += 1
          let app = "mix\(serial % 3)"
          let id = "C\(writer)-\(serial)"
          if serial % 4 == 0, let victim = ledger.randomStored(app: app, prefix: "C\(writer)-") {
            guard let result = try? notify(["cancel", "--app", app, victim], db: db, environment: patient)
            else { continue }
            // (1: no longer pending, delivered or discarded meanwhile)
            ledger.cancelled(app: app, id: victim, done: result.status == 0)
            if result.status > 1 {
              ledger.failed("cancel \(app)/\(victim) exit \(result.status): \(result.stderr)")
            }
            continue
          }
          let fireDate = Self.fireDate(far: serial % 3 == 0, end: end)
          guard
            let result = try? notify(
              [
                "schedule", "--app", app, "--id", id, "--at", rfc3339(fireDate), "--title",
                "c\(writer) \(serial)",
              ],
              db: db, environment: patient, timeout: 180)
          else { continue }
          let outcome: Scheduled.Outcome
          switch result.status {
          case 0: outcome = .stored
          case 1: outcome = .discardedAtOnce
          case 75:
            outcome = .refused
            ledger.failed("schedule \(app)/\(id): busy (75): \(result.stderr)")
          default:
            ledger.failed("schedule \(app)/\(id) exit \(result.status): \(result.stderr)")
            continue
          }
          ledger.add(Scheduled(app: app, id: id, fireDate: fireDate, outcome: outcome))
        }
      }
    }
    // (writers are done at `end`; the firers then deliver what is still due)
    while Date() < end { Thread.sleep(forTimeInterval: 0.1) }
    let drained = waitUntil(timeout: 30, interval: 0.1) {
      ((try? mainStore.dueCount(now: Date())) ?? 1) == 0
        && ((try? mainStore.pending(app: nil).allSatisfy { $0.nextFireDate.map { $0 > Date() } ?? true })
          ?? false)
    }
    #expect(drained, "the firers did not deliver everything due within 30 s")
    stop.set()
    group.wait()
    daemon.send(SIGTERM)
    #expect(daemon.waitExit(timeout: 10) == 0, "\(daemon.stderr)")

    // Then no command, call or fire-due run failed, not even as busy (75): eight writers and
    // two firers are the load the store is built for
    #expect(
      ledger.problems.isEmpty, "\(ledger.problems.count) failed, e.g. \(ledger.problems.prefix(5))")
    // And the limit held at every sample and is exact at the end: `lim` keeps its 64 soonest
    let scheduled = ledger.scheduled
    #expect(ledger.violations.isEmpty, "\(ledger.violations.prefix(5))")
    let pending = try mainStore.pending(app: nil)
    for app in ["lim", "mix0", "mix1", "mix2"] {
      #expect(pending.filter { $0.notification.app == app }.count <= PendingLimit.maximum)
    }
    let limKept = Set(pending.filter { $0.notification.app == "lim" }.map(\.notification.id))
    let limEver = scheduled.filter { $0.app == "lim" && $0.outcome != .refused }
    let soonest = Set(
      limEver.sorted { $0.fireDate < $1.fireDate }.prefix(PendingLimit.maximum).map(\.id))
    #expect(limEver.count > Self.limEnough)
    #expect(
      limKept == soonest,
      "lim kept \(limKept.count), \(limKept.subtracting(soonest).count) not among the 64 soonest")

    // And no occurrence was delivered twice, by either firer
    let printed = (daemon.deliveries + fireDueOutputs.values.flatMap(\.deliveries)).map(\.key)
    #expect(printed.count == Set(printed).count, "\(printed.count - Set(printed).count) duplicate deliveries")

    // And history is complete: every stored notification is pending, delivered, cancelled
    // or discarded, exactly one of them; refused ones left no trace
    let history = try mainStore.history(app: nil, limit: 1_000_000)
    var fates: [String: [String]] = [:]
    for event in history {
      fates["\(event.app)/\(event.notificationID)", default: []].append(event.kind.rawValue)
    }
    for item in pending {
      fates["\(item.notification.app)/\(item.notification.id)", default: []].append("pending")
    }
    var vanished: [String] = []
    var doubled: [String] = []
    for entry in scheduled {
      let key = "\(entry.app)/\(entry.id)"
      let fate = fates[key] ?? []
      switch entry.outcome {
      case .refused: if !fate.isEmpty { doubled.append("\(key) refused yet \(fate)") }
      case .stored, .discardedAtOnce:
        if fate.isEmpty { vanished.append(key) }
        if fate.count > 1 { doubled.append("\(key): \(fate)") }
      }
    }
    #expect(vanished.isEmpty, "vanished: \(vanished.prefix(10))")
    #expect(doubled.isEmpty, "\(doubled.prefix(10))")
    let deliveredEvents = history.filter { $0.kind == .delivered }.map {
      "\($0.app)/\($0.notificationID)#\($0.occurrence ?? 0)"
    }
    #expect(Set(printed) == Set(deliveredEvents), "printed and recorded deliveries differ")
    #expect(try mainStore.integrityCheck() == "ok")
    let count = { (kind: HistoryEvent.Kind) in history.filter { $0.kind == kind }.count }
    CrashTests.report(
      "concurrency: \(Int(Self.duration)) s, \(scheduled.count) schedules (\(scheduled.filter { $0.outcome == .refused }.count) busy), "
        + "\(ledger.cancelCount) cancels, \(count(.delivered)) delivered (daemon \(daemon.deliveries.count), "
        + "\(fireDueRuns.value) fire-due runs), \(count(.discarded)) discarded, \(pending.count) pending, "
        + "\(ledger.sampleCount) limit samples, 0 duplicates")
  }

  /// Due while the writers still write, or hours away.
  static func fireDate(far: Bool, end: Date) -> Date {
    far
      ? Date() + Double.random(in: 3600...36_000)
      : Date() + Double.random(in: 0.1...max(0.2, end.timeIntervalSinceNow))
  }

  /// Runs `body` on a thread of its own, entered in `group`.
  static func thread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    Thread.detachNewThread {
      body()
      group.leave()
    }
  }
}

/// A flag threads can read and one can set.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}

/// A counter threads share.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func next() -> Int {
    lock.withLock {
      defer { count += 1 }; return count
    }
  }
  var value: Int { lock.withLock { count } }
}

/// Values threads collect.
final class Collected<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Value] = []
  func append(_ item: Value) { lock.withLock { items.append(item) } }
  var values: [Value] { lock.withLock { items } }
}
