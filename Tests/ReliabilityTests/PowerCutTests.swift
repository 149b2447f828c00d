import Foundation
import GRDB
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// What notify acknowledged survives a power cut (`PowerCut`: each store file keeps its
/// content as of its last sync). An acknowledgement is what a caller was told: an id
/// printed, an exit status 0, an async call returned. Each run writes its acknowledgements
/// to a file outside the cut, then the cut is played back and the store is read again.
@Suite("Reliability: power cuts", .serialized, .needsPowerCut)
struct PowerCutTests {
  /// The environment of every `notify` of a run: the store, a data folder under the cut
  /// (sounds), no journald or systemd variables.
  static func environment(_ cut: PowerCut) -> [String: String] {
    [
      "NOTIFY": CommandRunner.product("notify"), "NOTIFY_DB": cut.root + "/state/notify.db",
      "XDG_DATA_HOME": cut.root + "/data", "NOTIFY_APP": "notify", "ACKS": cut.folder.file("acks"),
      "JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": "", "DBUS_SESSION_BUS_ADDRESS": "",
    ]
  }

  /// `notify ARGUMENTS` after the cut, with no shim.
  static func notify(_ cut: PowerCut, _ arguments: [String]) throws -> CommandRunner.Result {
    var environment = environment(cut)
    environment["LD_PRELOAD"] = ""
    return try NotifyTestSupport.notify(arguments, environment: environment)
  }

  /// The pending ids of `app` after the cut (the command must succeed: the store is whole).
  static func pending(_ cut: PowerCut, app: String = "notify") throws -> Set<String> {
    let list = try notify(cut, ["list", "--json", "--app", app])
    #expect(list.status == 0, "\(list.stderr)")
    let objects = (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) as? [[String: Any]] ?? []
    return Set(objects.compactMap { $0["id"] as? String })
  }

  /// The acknowledgements the run wrote, one per line.
  static func acknowledged(_ cut: PowerCut) -> [String] {
    let text = (try? String(contentsOfFile: cut.folder.file("acks"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  static func integrity(_ path: String) throws -> String {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "" }
  }

  @Test(
    "the model tells a synced program from one that is not: sqlite3 with synchronous=FULL keeps its 5 rows, NORMAL none"
  )
  func modelTellsSyncsApart() throws {
    for (mode, kept) in [("FULL", 5), ("NORMAL", 0)] {
      // Given a WAL database with an empty table, on the disk
      let cut = try PowerCut()
      let path = cut.root + "/plain.db"
      let queue = try DatabaseQueue(path: path)
      try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "CREATE TABLE t(x)")
      }
      try queue.close()
      try cut.begin()
      // When a Python sqlite3 program commits five rows, one transaction each, and the power goes
      let program = """
        import sqlite3, sys
        c = sqlite3.connect(sys.argv[1], isolation_level=None)
        c.execute('PRAGMA synchronous=\(mode)')
        for i in range(5): c.execute('INSERT INTO t VALUES (?)', (i,))
        import os; os._exit(0)
        """
      let outcome = try cut.run("/usr/bin/python3 -c \"$1\" \"$2\"", arguments: [program, path])
      #expect(outcome == .exited(0), "\(cut.log)")
      try cut.restore()
      // Then the synced program's rows are all there, the other's none
      let count = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }
      #expect(count == kept, "synchronous=\(mode)")
    }
  }

  @Test("five schedules that printed their ids, then a cut: all five are pending")
  func fiveSchedules() throws {
    // Given a store that exists, on the disk
    let cut = try PowerCut()
    #expect(try Self.notify(cut, ["schedule", "--in", "1h", "--id", "before", "x"]).status == 0)
    try cut.begin()
    // When five schedules each print their id, and the power goes after the last
    let outcome = try cut.run(
      """
      for i in 1 2 3 4 5; do "$NOTIFY" schedule --in 1h --id "s$i" "hello $i" >>"$ACKS" || exit 1; done
      """, environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then every printed id is pending, with the one from before
    let acknowledged = Self.acknowledged(cut)
    #expect(acknowledged == ["s1", "s2", "s3", "s4", "s5"])
    #expect(try Self.pending(cut) == ["before", "s1", "s2", "s3", "s4", "s5"])
  }

  @Test("a cancel that exited 0, then a cut: the notification stays cancelled and never fires")
  func cancelStaysCancelled() throws {
    // Given a pending notification, on the disk
    let cut = try PowerCut()
    #expect(try Self.notify(cut, ["schedule", "--in", "2s", "--id", "gone", "x"]).status == 0)
    try cut.begin()
    // When it is cancelled (exit 0) and the power goes
    let outcome = try cut.run(
      #""$NOTIFY" cancel gone && echo cancelled >>"$ACKS""#, environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then it is not pending, and a fire-due past its instant delivers nothing
    #expect(Self.acknowledged(cut) == ["cancelled"])
    #expect(try Self.pending(cut).isEmpty)
    Thread.sleep(forTimeInterval: 2.1)
    let fired = try Self.notify(cut, ["fire-due", "--sink", "stdout"])
    #expect(fired.status == 0, "\(fired.stderr)")
    #expect(!fired.stdout.contains("\"gone\""), "\(fired.stdout)")
  }

  /// A command that changes the store or takes something from it once, and how to tell
  /// after the cut that what it acknowledged is there.
  struct Acknowledging: CustomTestStringConvertible, Sendable {
    var name: String
    /// What the store holds before (on the disk): commands run first.
    var given: [[String]]
    /// The command whose exit 0 is the acknowledgement.
    var command: [String]
    /// A command after the cut and what its output must contain (or, with `absent`, not).
    var check: [String]
    var expected: String
    var absent = false
    var testDescription: String { name }
  }

  static let acknowledging: [Acknowledging] = [
    Acknowledging(
      name: "now", given: [], command: ["now", "--sink", "stdout", "--id", "shown", "hi"],
      check: ["history", "--json"], expected: #""id":"shown""#),
    Acknowledging(
      name: "badge", given: [], command: ["badge", "7"], check: ["badge"], expected: "7"),
    Acknowledging(
      name: "settings", given: [], command: ["settings", "--sounds", "off"], check: ["settings", "--json"],
      expected: #""sounds":false"#),
    Acknowledging(
      name: "quiet", given: [], command: ["quiet", "on", "--for", "1h"], check: ["quiet", "--json"],
      expected: #""quiet":true"#),
    Acknowledging(
      name: "category", given: [], command: ["category", "set", "message", "--button", "ok:OK"],
      check: ["category", "list", "--json"], expected: #""identifier":"message""#),
    Acknowledging(
      name: "cancel --all",
      given: [["schedule", "--in", "1h", "--id", "a", "x"], ["schedule", "--in", "1h", "--id", "b", "y"]],
      command: ["cancel", "--all"], check: ["list", "--json"], expected: #""id""#, absent: true),
  ]

  @Test(
    "each acknowledging command, then a cut: what it said it did is on the disk", arguments: acknowledging)
  func acknowledgingCommand(_ example: Acknowledging) throws {
    // Given a store holding what the example needs, on the disk
    let cut = try PowerCut()
    #expect(try Self.notify(cut, ["schedule", "--in", "1h", "--id", "before", "x"]).status == 0)
    for given in example.given {
      let result = try Self.notify(cut, given)
      #expect(result.status == 0, "\(given): \(result.stderr)")
    }
    try cut.begin()
    // When the command exits 0, and the power goes
    let quoted = example.command.map { "'\($0)'" }.joined(separator: " ")
    let outcome = try cut.run(
      #""$NOTIFY" "# + quoted + #" >/dev/null && echo ok >>"$ACKS""#, environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then what it did is there
    #expect(Self.acknowledged(cut) == ["ok"])
    let check = try Self.notify(cut, example.check)
    #expect(check.status == 0, "\(check.stderr)")
    let compact = check.stdout.replacingOccurrences(of: " ", with: "")
    if example.absent {
      #expect(!compact.contains(example.expected), "\(check.stdout)")
    } else {
      #expect(compact.contains(example.expected), "\(check.stdout)")
    }
  }

  @Test("a sound installed (exit 0), then a cut: the installed file is whole")
  func soundInstall() throws {
    // Given a valid sound file outside the store
    let cut = try PowerCut()
    let source = cut.folder.file("chime.wav")
    try TestWAV.pcm16(frames: 8000).write(to: URL(fileURLWithPath: source))
    #expect(try Self.notify(cut, ["list"]).status == 0)
    try cut.begin()
    // When it is installed for an app, and the power goes
    let outcome = try cut.run(
      #""$NOTIFY" sound install "$1" --app chat >/dev/null && echo ok >>"$ACKS""#, arguments: [source],
      environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then the app's copy has every byte
    #expect(Self.acknowledged(cut) == ["ok"])
    let installed = cut.root + "/data/notify/sounds/chat/chime.wav"
    #expect(fileBytes(installed) == fileBytes(source))
  }

  @Test("responses and launch-response, then a cut: what was taken once is not given again")
  func takenOnce() throws {
    // Given a waiting response and one that launched the app, on the disk
    let cut = try PowerCut()
    do {
      let store = try SQLiteStore(path: cut.root + "/state/notify.db")
      let notification = LocalNotification(
        id: "asked", app: "notify", schedule: Schedule(fireDate: .instant(Date())), title: "t",
        createdAt: Date())
      for launching in [false, true] {
        _ = try store.leave(
          NotificationResponse(
            notification: notification, actionKey: launching ? "default" : "ok", occurrence: 1,
            activationToken: nil, date: Date()),
          launching: launching)
      }
    }
    try cut.begin()
    // When each is taken (printed), and the power goes
    let outcome = try cut.run(
      #"""
      "$NOTIFY" responses >"$ACKS.responses" && echo responses >>"$ACKS"
      "$NOTIFY" launch-response >"$ACKS.launch" && echo launch >>"$ACKS"
      """#, environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then both were printed once, and neither is there to take again
    #expect(Self.acknowledged(cut) == ["responses", "launch"])
    #expect(
      (try? String(contentsOfFile: cut.folder.file("acks.responses"), encoding: .utf8))?.contains("\"ok\"")
        == true)
    let again = try Self.notify(cut, ["responses"])
    #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
    #expect(try Self.notify(cut, ["launch-response"]).status == 1)
  }

  @Test("the library's async add returns only what is on the disk: five added, then a cut, five pending")
  func libraryAdd() throws {
    // Given a store that exists, on the disk
    let cut = try PowerCut()
    #expect(try Self.notify(cut, ["list"]).status == 0)
    try cut.begin()
    // When an app adds five notifications, each call returning, and the power goes
    let outcome = try cut.run(
      #""$1" --db "$NOTIFY_DB" --app notify --add 5 >>"$ACKS""#,
      arguments: [CommandRunner.product("embedded-app-fixture")], environment: Self.environment(cut))
    #expect(outcome == .exited(0), "\(cut.log)")
    try cut.restore()
    // Then the five are pending
    #expect(Self.acknowledged(cut) == (1...5).map { "added lib-\($0)" })
    #expect(try Self.pending(cut) == Set((1...5).map { "lib-\($0)" }))
  }

  /// The seed of the randomised cuts: `NOTIFY_POWER_CUT_SEED` replays one.
  static let seed =
    ProcessInfo.processInfo.environment["NOTIFY_POWER_CUT_SEED"].flatMap { UInt64($0) }
    ?? 20_261_205

  @Test(
    "schedules and cancels cut at seeded points, after a sync or between two: every acknowledgement holds, the store is whole"
  )
  func seededCuts() throws {
    var random = SeededGenerator(seed: Self.seed)
    // The run: twelve schedules, every third cancelling an earlier one
    let script = """
      for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
        "$NOTIFY" schedule --in 1h --id "s$i" "x" >/dev/null && echo "scheduled s$i" >>"$ACKS"
        if [ $((i % 3)) = 0 ]; then
          echo "cancelling s$((i - 1))" >>"$ACKS"
          "$NOTIFY" cancel "s$((i - 1))" && echo "cancelled s$((i - 1))" >>"$ACKS"
        fi
      done
      """
    // How many syncs a whole run makes
    let counting = try PowerCut()
    #expect(try Self.notify(counting, ["list"]).status == 0)
    try counting.begin()
    #expect(
      try counting.run(script, environment: Self.environment(counting), cutAfterSyncs: 1_000_000)
        == .exited(0))
    let syncs = counting.syncs
    let duration = 0.6
    for round in 0..<12 {
      let cut = try PowerCut()
      #expect(try Self.notify(cut, ["list"]).status == 0)
      try cut.begin()
      // When the power goes at a seeded point of the run
      let afterSyncs = round % 2 == 0 && syncs > 0 ? Int.random(in: 1...syncs, using: &random) : nil
      let afterSeconds = afterSyncs == nil ? Double.random(in: 0.01...duration, using: &random) : nil
      _ = try cut.run(
        script, environment: Self.environment(cut), cutAfterSyncs: afterSyncs, cutAfter: afterSeconds)
      try cut.restore()
      // Then the store is whole, every acknowledged schedule not cancelled since is
      // pending, and no acknowledged cancel is
      let point = afterSyncs.map { "after sync \($0) of \(syncs)" } ?? "after \(afterSeconds!) s"
      #expect(
        try Self.integrity(cut.root + "/state/notify.db") == "ok", "seed \(Self.seed) round \(round) \(point)"
      )
      var expected: Set<String> = []
      var cancelled: Set<String> = []
      for line in Self.acknowledged(cut) {
        let words = line.split(separator: " ").map(String.init)
        if words.first == "scheduled" { expected.insert(words[1]) }
        // (a cancel under way when the power went may have taken effect, or not)
        if words.first == "cancelling" { expected.remove(words[1]) }
        if words.first == "cancelled" { cancelled.insert(words[1]) }
      }
      let pending = try Self.pending(cut)
      #expect(
        expected.isSubset(of: pending),
        "lost \(expected.subtracting(pending)): seed \(Self.seed) round \(round) \(point)")
      #expect(cancelled.isDisjoint(with: pending), "back: \(cancelled.intersection(pending)) \(point)")
    }
  }

  @Test(
    "store creation cut after each of its syncs and between them: no store or a whole one, never a broken one"
  )
  func creation() throws {
    let script = #""$NOTIFY" schedule --in 1h --id first "x" >>"$ACKS""#
    let counting = try PowerCut()
    try counting.begin()
    #expect(
      try counting.run(script, environment: Self.environment(counting), cutAfterSyncs: 1_000_000)
        == .exited(0))
    let syncs = counting.syncs
    var random = SeededGenerator(seed: Self.seed)
    // (no cut during the run: the power goes once it ended; a cut after each sync; three
    // at seeded moments between syncs)
    let points: [(Int?, Double?)] =
      (0...syncs).map { ($0 == 0 ? nil : $0, nil) }
      + (0..<3).map { _ in (nil, Double.random(in: 0.001...0.05, using: &random)) }
    for (afterSyncs, afterSeconds) in points {
      // Given no store
      let cut = try PowerCut()
      try cut.begin()
      // When the first schedule creates it and the power goes at this point
      _ = try cut.run(
        script, environment: Self.environment(cut), cutAfterSyncs: afterSyncs, cutAfter: afterSeconds)
      try cut.restore()
      // Then the store opens (made again when it is gone), and holds the notification if
      // its id was printed
      let point =
        afterSyncs.map { "after sync \($0) of \(syncs)" } ?? afterSeconds.map { "after \($0) s" }
        ?? "after the run"
      let pending = try Self.pending(cut)
      if Self.acknowledged(cut) == ["first"] { #expect(pending == ["first"], "\(point)") }
      #expect(try Self.integrity(cut.root + "/state/notify.db") == "ok", "\(point)")
    }
  }

  @Test("each migration cut after each of its syncs: the old store or the new one, its notification kept")
  func migrations() throws {
    var random = SeededGenerator(seed: Self.seed)
    let names = StoreSchema.migrator.migrations
    for (index, name) in names.enumerated() where index < names.count - 1 {
      let script = #""$NOTIFY" schedule --app a --in 1h --id new "x" >>"$ACKS""#
      // How many syncs opening this version's store makes
      let counting = try PowerCut()
      try Self.oldStore(at: counting.root + "/state/notify.db", upTo: name)
      try counting.begin()
      #expect(
        try counting.run(script, environment: Self.environment(counting), cutAfterSyncs: 1_000_000)
          == .exited(0))
      let syncs = counting.syncs
      // (no cut during the run, two after seeded syncs, one at a seeded moment)
      let points: [(Int?, Double?)] =
        [(nil, nil)] + (0..<2).map { _ in (syncs > 0 ? Int.random(in: 1...syncs, using: &random) : nil, nil) }
        + [(nil, Double.random(in: 0.001...0.05, using: &random))]
      for (afterSyncs, afterSeconds) in points {
        // Given a store this version's migrations start from, with a notification in it
        let cut = try PowerCut()
        let path = cut.root + "/state/notify.db"
        try Self.oldStore(at: path, upTo: name)
        try cut.begin()
        // When a schedule migrates it and the power goes at this point
        _ = try cut.run(
          script, environment: Self.environment(cut), cutAfterSyncs: afterSyncs, cutAfter: afterSeconds)
        try cut.restore()
        // Then it opens (migrated the rest of the way), the old notification is pending,
        // and the new one is if its id was printed
        let point =
          "from \(name), "
          + (afterSyncs.map { "after sync \($0) of \(syncs)" } ?? afterSeconds.map { "after \($0) s" }
            ?? "after the run")
        #expect(try Self.integrity(path) == "ok", "\(point)")
        let pending = try Self.pending(cut, app: "a")
        #expect(pending.contains("kept"), "\(point): \(pending)")
        if Self.acknowledged(cut) == ["new"] { #expect(pending.contains("new"), "\(point)") }
      }
    }
  }

  /// A store as the version whose last migration is `name` left it, in WAL mode, with one
  /// pending notification (`kept`, app `a`) written by the first version.
  static func oldStore(at path: String, upTo name: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let old = try DatabaseQueue(path: path)
    try old.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
    try StoreSchema.migrator.migrate(old, upTo: "v1-notifications-claims-history")
    try old.write { db in
      try db.execute(
        sql: """
          INSERT INTO notification (app, id, title, fire_instant, created_at, next_fire_at)
          VALUES ('a', 'kept', 'still here', 4102444800000, 1700000000000, 4102444800000)
          """)
    }
    try StoreSchema.migrator.migrate(old, upTo: name)
    try old.close()
    chmod(path, 0o600)
  }
}

/// The firer's own records across a cut (docs/store-and-reliability.md, "Power cuts"): a
/// notification handed over in the moments before the cut may be shown once more after
/// it, marked late; never one whose delivery anyone could read in history, never one whose
/// cancel was acknowledged; none is lost.
@Suite("Reliability: power cuts while the daemon fires", .serialized, .needsPowerCut)
struct PowerCutFiringTests {
  @Test(
    "a daemon firing a stream, cut at seeded moments: nothing lost, nothing told twice, no acknowledged cancel shown"
  )
  func daemonStream() throws {
    var random = SeededGenerator(seed: PowerCutTests.seed)
    for round in 0..<4 {
      let cut = try PowerCut()
      var environment = PowerCutTests.environment(cut)
      let seen = cut.folder.file("seen")
      let told = cut.folder.file("told")
      environment["SEEN"] = seen
      environment["TOLD"] = told
      // Given 40 notifications falling due every 25 ms from 0.6 s on, on the disk
      let start = Date() + 0.6
      do {
        let store = try SQLiteStore(path: cut.root + "/state/notify.db")
        for index in 0..<40 {
          let notification = LocalNotification(
            id: "n\(index)", app: "notify",
            schedule: Schedule(fireDate: .instant(start + Double(index) * 0.025)),
            body: "stream \(index)", createdAt: Date())
          _ = try store.schedule(notification, zones: testZones(testZone("UTC")))
        }
      }
      try cut.begin()
      // When the daemon fires them to stdout (what the user saw), history is read while it
      // does (what the user was told was recorded), one due late in the stream is
      // cancelled, and the power goes at a seeded moment
      let moment = Double.random(in: 0.3...1.8, using: &random)
      _ = try cut.run(
        """
        "$NOTIFY" daemon --sink stdout >>"$SEEN" 2>/dev/null &
        ( while :; do "$NOTIFY" history --json --limit 100 >>"$TOLD" 2>/dev/null; done ) &
        sleep 0.5; "$NOTIFY" cancel n39 && echo "cancelled n39" >>"$ACKS"
        wait
        """, environment: environment, cutAfter: moment)
      try cut.restore()
      let point = "seed \(PowerCutTests.seed) round \(round), cut after \(moment) s"
      // Then the store is whole
      #expect(try PowerCutTests.integrity(cut.root + "/state/notify.db") == "ok", "\(point)")
      let recorded = try Self.recordedDelivered(cut)
      // And once everything is due, more than the late tolerance (1 s) ago, a fire-due
      // delivers what the disk did not record
      while Date() < start + 2.1 { Thread.sleep(forTimeInterval: 0.05) }
      let after = try PowerCutTests.notify(cut, ["fire-due", "--sink", "stdout"])
      #expect(after.status == 0, "\(after.stderr)")
      let before = Self.ids(inLines: (try? String(contentsOfFile: seen, encoding: .utf8)) ?? "")
      let again = Self.ids(inLines: after.stdout)
      let acknowledged = PowerCutTests.acknowledged(cut).contains("cancelled n39")
      // (a cancel the disk kept took effect, acknowledged or not: the cut may fall between
      // its commit and its acknowledgement)
      let cancelled = try acknowledged || Self.recorded(cut, "cancelled").contains("n39")
      // Nothing is lost
      let all = Set((0..<40).map { "n\($0)" }).subtracting(cancelled ? ["n39"] : [])
      #expect(
        all.isSubset(of: Set(before).union(again)),
        "lost \(all.subtracting(Set(before).union(again))): \(point)")
      // A delivery recorded on the disk is not shown again, nor one history told of
      let toldDelivered = Self.toldDelivered(told)
      #expect(
        recorded.isDisjoint(with: again),
        "recorded, then shown again: \(recorded.intersection(again)) \(point)")
      #expect(
        toldDelivered.isDisjoint(with: again),
        "told delivered, then shown again: \(toldDelivered.intersection(again)) \(point)")
      #expect(
        toldDelivered.isSubset(of: recorded),
        "told, then gone: \(toldDelivered.subtracting(recorded)) \(point)")
      // A cancel acknowledged or kept by the disk is never shown after the cut
      if cancelled { #expect(!again.contains("n39"), "\(point)") }
      CrashTests.report(
        "power cut \(point): \(before.count) shown before, \(again.count) after (\(Set(before).intersection(again).count) twice), \(recorded.count) recorded, n39 cancel acknowledged: \(acknowledged), on the disk: \(cancelled)"
      )
      // And what is shown again after the cut is marked late
      let twice = Set(before).intersection(again)
      for line in after.stdout.split(separator: "\n")
      where twice.contains(where: { line.contains("\"id\":\"\($0)\"") }) {
        #expect(line.contains("\"late\":true"), "\(line)")
      }
    }
  }

  /// The ids of `delivered` lines of the stdout sink.
  static func ids(inLines text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "delivered"
      else { return nil }
      return object["id"] as? String
    }
  }

  /// The ids history showed as delivered, in any of the `history --json` outputs in `file`.
  static func toldDelivered(_ file: String) -> Set<String> {
    deliveredIDs(inHistory: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
  }

  /// The ids of `delivered` events in `history --json` outputs (an array, one event a line).
  static func deliveredIDs(inHistory text: String) -> Set<String> { ids(inHistory: text, event: "delivered") }

  /// The ids of `event` events in `history --json` outputs (an array, one event a line).
  static func ids(inHistory text: String, event kind: String) -> Set<String> {
    var ids: Set<String> = []
    for line in text.split(separator: "\n") {
      var object = line.trimmingCharacters(in: .whitespaces)
      if object.hasSuffix(",") { object.removeLast() }
      guard object.hasPrefix("{"),
        let event = try? JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any],
        event["event"] as? String == kind, let id = event["id"] as? String
      else { continue }
      ids.insert(id)
    }
    return ids
  }

  /// The ids the store, as the disk kept it, records as delivered.
  static func recordedDelivered(_ cut: PowerCut) throws -> Set<String> { try recorded(cut, "delivered") }

  /// The ids the store, as the disk kept it, records with `event` in its history.
  static func recorded(_ cut: PowerCut, _ event: String) throws -> Set<String> {
    let history = try PowerCutTests.notify(cut, ["history", "--json", "--limit", "1000"])
    #expect(history.status == 0, "\(history.stderr)")
    return ids(inHistory: history.stdout, event: event)
  }
}
