import Foundation
import NotifyTestSupport
import Testing

/// A D-Bus `Schedule` the daemon answered survives a power cut (`PowerCut`): the service
/// commits without a sync of its own and syncs once for every call it ran before any of
/// their answers goes out (group commit).
@Suite("Scheduler: what the service answered survives a power cut", .serialized, .needsPowerCut)
struct ServicePowerCutTests {
  /// A run: the daemon with its scheduler on a private bus that outlives the cut (the bus
  /// daemon is another machine's part here: only the store is cut), then clients.
  static let script = """
    "$NOTIFY" daemon --sink stdout >/dev/null 2>&1 &
    until gdbus call --session --dest io.github.notify.Scheduler1 --object-path /io/github/notify/Scheduler1 \\
      --method org.freedesktop.DBus.Properties.Get io.github.notify.Scheduler1 Version >/dev/null 2>&1; do
      sleep 0.01
    done
    /usr/bin/python3 "$CLIENT" batch chat 5 >>"$ACKS"
    for i in 1 2 3; do /usr/bin/python3 "$CLIENT" present other "p$i" >>"$ACKS"; done
    CUT_AFTER_ANSWER=1 /usr/bin/python3 "$CLIENT" batch last 3 >>"$ACKS"
    """

  @Test(
    "Schedule and Present answered, then a cut the moment the last answer came or after a seeded sync: every answered id is there",
    .needsSchedulerBus)
  func answeredCallsSurvive() throws {
    var random = SeededGenerator(
      seed: ProcessInfo.processInfo.environment["NOTIFY_POWER_CUT_SEED"].flatMap { UInt64($0) } ?? 20_261_205)
    let busFolder = TemporaryFolder(prefix: "notify-cut-bus")
    let bus = try ScriptedDesktop(in: busFolder, services: busFolder.path, withServer: false)
    func environment(_ cut: PowerCut) -> [String: String] {
      bus.bus.merging([
        "NOTIFY": CommandRunner.product("notify"), "NOTIFY_DB": cut.root + "/state/notify.db",
        "NOTIFY_SCHEDULER": "on", "XDG_DATA_HOME": cut.root + "/data", "ACKS": cut.folder.file("acks"),
        "CLIENT": SchedulerBus.client, "JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": "",
      ]) { $1 }
    }
    func prepared() throws -> PowerCut {
      let cut = try PowerCut()
      var plain = environment(cut)
      plain["LD_PRELOAD"] = ""
      #expect(try CommandRunner(environment: plain).run(["list"]).status == 0)
      try cut.begin()
      return cut
    }
    // How many syncs a whole run makes
    let counting = try prepared()
    #expect(
      try counting.run(Self.script, environment: environment(counting), cutAfterSyncs: 1_000_000) == .cut)
    let syncs = counting.syncs
    let points = [nil] + (0..<3).map { _ in Int.random(in: 1...max(1, syncs), using: &random) }
    for afterSyncs in points {
      // Given a store on the disk and a daemon serving it on the bus
      let cut = try prepared()
      // When clients schedule and present through it, and the power goes
      _ = try cut.run(Self.script, environment: environment(cut), cutAfterSyncs: afterSyncs)
      try cut.restore()
      // Then every id the service answered with is in the store, for its app
      var plain = environment(cut)
      plain["LD_PRELOAD"] = ""
      let lines = ((try? String(contentsOfFile: cut.folder.file("acks"), encoding: .utf8)) ?? "")
        .split(separator: "\n").map(String.init)
      // (the script's answers, in order: chat's batch, other's three presents, last's batch)
      let apps = ["chat", "other", "other", "other", "last"]
      var answered: Set<String> = []
      for (line, app) in zip(lines, apps) {
        for id in Self.answeredIDs(line) { answered.insert("\(app)/\(id)") }
      }
      var stored: Set<String> = []
      for app in Set(apps) {
        let list = try CommandRunner(environment: plain).run(["list", "--json", "--app", app])
        #expect(list.status == 0, "\(list.stderr)")
        let history = try CommandRunner(environment: plain).run(["history", "--json", "--app", app])
        for text in [list.stdout, history.stdout] {
          for match in text.matches(of: /"id":"([^"]+)"/) { stored.insert("\(app)/\(match.output.1)") }
        }
      }
      let point = afterSyncs.map { "after sync \($0) of \(syncs)" } ?? "the moment the last answer came"
      #expect(answered.isSubset(of: stored), "lost \(answered.subtracting(stored)) \(point)")
      if afterSyncs == nil { #expect(answered.count == 11, "\(cut.log)") }
    }
  }

  /// The ids in a client's `{"result": ...}` line: a batch's scheduled ids, or the
  /// presented id.
  static func answeredIDs(_ line: String) -> [String] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let result = object["result"] as? [Any]
    else { return [] }
    if let scheduled = result.first as? [String] { return scheduled }
    if let presented = result.first as? String { return [presented] }
    return []
  }
}
