import Foundation
import NotifyTestSupport
import Testing

@Suite("schedule, list, show, cancel, history and badge, end to end", .ownThreads)
struct ScheduleCommandTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "tests"])
  }

  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test("schedule --in prints an id that list shows, with valid JSON in the spec's shape")
  func scheduleAndList() throws {
    let scheduled = try notify.run(["schedule", "--in", "10m", "Stand up"])
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let id = scheduled.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(id.hasPrefix("n-"))
    let list = try notify.run(["list", "--json"])
    let items = try #require(try json(list.stdout) as? [[String: Any]])
    #expect(items.count == 1)
    let item = try #require(items.first)
    for key in [
      "id", "app", "title", "body", "action", "launchImage", "sound", "badge", "userInfo", "urgency",
      "fireDate",
      "timeZone", "wallClock", "repeat", "repeatCount", "until", "deliveredCount", "createdAt",
    ] {
      #expect(item.keys.contains(key), "missing \(key)")
    }
    #expect(item["id"] as? String == id)
    #expect(item["body"] as? String == "Stand up")
    #expect(item["timeZone"] is NSNull)
    let fire = try #require(item["fireDate"] as? String)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let fireDate = try #require(formatter.date(from: fire))
    #expect(abs(fireDate.timeIntervalSinceNow - 600) < 30)
    let readable = try notify.run(["list"])
    #expect(readable.stdout.contains(id))
  }

  @Test("a wall-clock daily notification with everything, and its upcoming instants across DST")
  func wallClockUpcoming() throws {
    let result = try notify.run([
      "schedule", "--id", "standup", "--at", "2030-03-29T09:00", "--time-zone", "Europe/Berlin", "--repeat",
      "day",
      "--title", "Standup", "--body", "Daily standup", "--sound", "default", "--badge", "1",
      "--user-info", "{\"room\":\"4B\"}",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let show = try notify.run(["show", "standup", "--upcoming", "5", "--json"])
    let item = try #require(try json(show.stdout) as? [String: Any])
    #expect(item["timeZone"] as? String == "Europe/Berlin")
    #expect(item["wallClock"] as? String == "2030-03-29T09:00:00")
    #expect((item["userInfo"] as? [String: Any])?["room"] as? String == "4B")
    #expect(item["badge"] as? Int == 1)
    // Berlin moves to summer time on Sunday 2030-03-31: 09:00 stays 09:00 local.
    #expect(
      item["upcoming"] as? [String] == [
        "2030-03-29T08:00:00Z", "2030-03-30T08:00:00Z", "2030-03-31T07:00:00Z", "2030-04-01T07:00:00Z",
        "2030-04-02T07:00:00Z",
      ])
  }

  @Test("--on mon,wed --at 09:00: list --json shows the rule, show --upcoming its Mondays and Wednesdays")
  func weekdayRule() throws {
    // Given a notification on Mondays and Wednesdays at 09:00 in Berlin, one Wednesday left out
    let result = try notify.run([
      "schedule", "--id", "standup", "--on", "mon,wed", "--at", "2030-03-20T09:00", "--time-zone",
      "Europe/Berlin",
      "--except", "2030-03-27", "--title", "Standup",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Then list --json carries the rule and the excluded day
    let items = try #require(try json(try notify.run(["list", "--json"]).stdout) as? [[String: Any]])
    let item = try #require(items.first)
    #expect(item["rule"] as? String == "FREQ=WEEKLY;BYDAY=MO,WE")
    #expect(item["except"] as? [String] == ["2030-03-27"])
    #expect(item["repeat"] is NSNull)
    #expect(item["fireDate"] as? String == "2030-03-20T08:00:00Z")
    // And show --upcoming lists Mondays and Wednesdays at 09:00 Berlin time, across the DST change
    let show = try #require(
      try json(try notify.run(["show", "standup", "--upcoming", "5", "--json"]).stdout) as? [String: Any])
    #expect(
      show["upcoming"] as? [String] == [
        "2030-03-20T08:00:00Z", "2030-03-25T08:00:00Z", "2030-04-01T07:00:00Z", "2030-04-03T07:00:00Z",
        "2030-04-08T07:00:00Z",
      ])
    // And the readable list names the rule
    #expect(try notify.run(["list"]).stdout.contains("rule FREQ=WEEKLY;BYDAY=MO,WE"))
  }

  @Test(
    "notify schedule --on mon,wed --at 09:00 in the system zone: upcoming are Mondays and Wednesdays at 09:00 there"
  )
  func weekdayRuleInTheSystemZone() throws {
    // Given the system zone New York (TZ) and the plain short form
    let local = CommandRunner(
      environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "tests", "TZ": "America/New_York"])
    let result = try local.run([
      "schedule", "--id", "mw", "--on", "mon,wed", "--at", "09:00", "--title", "Standup",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // When show --upcoming lists eight
    let show = try #require(
      try json(try local.run(["show", "mw", "--upcoming", "8", "--json"]).stdout) as? [String: Any])
    #expect(show["timeZone"] as? String == "local")
    let formatter = ISO8601DateFormatter()
    let instants = try #require(show["upcoming"] as? [String]).compactMap { formatter.date(from: $0) }
    // Then each is a Monday or Wednesday at 09:00 New York time, in order, from the next one on
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "America/New_York")!
    #expect(instants.count == 8)
    #expect(instants == instants.sorted() && instants.first.map { $0 > Date() } == true)
    for instant in instants {
      let parts = calendar.dateComponents([.weekday, .hour, .minute], from: instant)
      #expect([2, 4].contains(parts.weekday) && parts.hour == 9 && parts.minute == 0, "\(instant)")
    }
    #expect(instants.first.map { $0.timeIntervalSinceNow < 7 * 86_400 } == true)
  }

  @Test("--rrule with --repeat-count: the count becomes the rule's COUNT")
  func ruleWithCount() throws {
    let result = try notify.run([
      "schedule", "--id", "eom", "--rrule", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "--at",
      "2030-01-01T17:00", "--time-zone", "UTC", "--repeat-count", "3", "--json", "x",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let item = try #require(try json(result.stdout) as? [String: Any])
    #expect(item["rule"] as? String == "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3")
    #expect(item["repeatCount"] as? Int == 3)
    let show = try #require(
      try json(try notify.run(["show", "eom", "--upcoming", "5", "--json"]).stdout) as? [String: Any])
    #expect(
      show["upcoming"] as? [String] == [
        "2030-01-31T17:00:00Z", "2030-02-28T17:00:00Z", "2030-03-29T17:00:00Z",
      ])
  }

  @Test("--id replaces a pending notification of the same app only")
  func replaceByID() throws {
    #expect(try notify.run(["schedule", "--in", "1h", "--id", "x", "first"]).status == 0)
    #expect(try notify.run(["schedule", "--in", "2h", "--id", "x", "second"]).status == 0)
    #expect(try notify.run(["schedule", "--in", "2h", "--id", "x", "--app", "other", "third"]).status == 0)
    let list = try #require(
      try json(try notify.run(["list", "--json", "--all-apps"]).stdout) as? [[String: Any]])
    #expect(list.count == 2)
    #expect(list.contains { $0["app"] as? String == "tests" && $0["body"] as? String == "second" })
  }

  @Test("cancel, cancel --all and history")
  func cancelAndHistory() throws {
    for id in ["a", "b", "c"] {
      #expect(try notify.run(["schedule", "--in", "1h", "--id", id, id]).status == 0)
    }
    #expect(try notify.run(["cancel", "a"]).status == 0)
    let partial = try notify.run(["cancel", "b", "missing"])
    #expect(partial.status == 1)
    #expect(partial.stderr.contains("'missing' is not pending"))
    #expect(try notify.run(["cancel", "--all"]).status == 0)
    let history = try #require(try json(try notify.run(["history", "--json"]).stdout) as? [[String: Any]])
    #expect(history.map { $0["event"] as? String } == ["cancelled", "cancelled", "cancelled"])
    #expect(history.map { $0["id"] as? String } == ["c", "b", "a"])
    #expect(
      try notify.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  @Test("badge shows, sets and clears per app")
  func badge() throws {
    #expect(try notify.run(["badge"]).stdout == "0\n")
    #expect(try notify.run(["badge", "7"]).status == 0)
    #expect(try notify.run(["badge"]).stdout == "7\n")
    #expect(try notify.run(["badge", "--app", "other"]).stdout == "0\n")
    #expect(try notify.run(["badge", "clear"]).status == 0)
    #expect(try notify.run(["badge"]).stdout == "0\n")
  }

  @Test("the 64 limit: 70 in random order keep the 64 soonest, warn for each, and a later 65th exits 1")
  func pendingLimit() throws {
    var generator = SystemRandomNumberGenerator()
    var warnings = 0
    var refused = 0
    for i in Array(0..<70).shuffled(using: &generator) {
      let at = String(format: "2030-01-01T%02d:%02d:00Z", i / 60, i % 60)
      let result = try notify.run([
        "schedule", "--at", at, "--id", "n\(i)", "--repeat", i == 0 ? "day" : "minute", "x",
      ])
      #expect(result.status == 0 || result.status == 1)
      if result.status == 1 { refused += 1 }
      warnings += result.stderr.components(separatedBy: "warning: discarded").count - 1
    }
    let ids = try #require(try json(try notify.run(["list", "--json"]).stdout) as? [[String: Any]]).map {
      $0["id"] as? String
    }
    #expect(ids == (0..<64).map { "n\($0)" })
    let discarded = try #require(
      try json(try notify.run(["history", "--json", "--limit", "100"]).stdout) as? [[String: Any]])
    #expect(discarded.count == 6)
    #expect(
      discarded.allSatisfy {
        $0["event"] as? String == "discarded" && $0["reason"] as? String == "pending-limit"
      })
    // Each eviction of an already-pending one was warned about; a new one discarded itself exits 1 instead.
    let late = try notify.run(["schedule", "--at", "2031-01-01T00:00:00Z", "--id", "late", "--json", "x"])
    #expect(late.status == 1)
    #expect(late.stderr.contains("not scheduled: 'late'"))
    let record = try #require(try json(late.stdout) as? [String: Any])
    #expect(record["discarded"] as? [String] == ["late"])
    #expect(warnings + refused == 6)
  }

  @Test("8 processes x 50 schedules into one app leave exactly 64 pending and a consistent history")
  func concurrentProcesses() throws {
    let script = """
      for i in $(seq 0 49); do
        n=$(( $1 * 50 + i ))
        "$0" schedule --at "$(date -u -d "@$(( 1900000000 + (n * 7919 % 400) * 60 ))" +%Y-%m-%dT%H:%M:%SZ)" --id "p$n" x >/dev/null 2>&1
        s=$?; [ $s -eq 0 ] || [ $s -eq 1 ] || echo "unexpected exit $s for $n"
      done
      """
    let group = DispatchGroup()
    nonisolated(unsafe) var outputs = [String](repeating: "", count: 8)
    // The 64 limit under concurrency is under test, not the machine's speed: on a CI
    // machine loaded by other work, the store's creation alone has taken more than the
    // default 5 s (SlowDiskTests covers the busy timeout).
    let shell = CommandRunner(
      executable: "/bin/sh", environment: notify.environment.merging(["NOTIFY_BUSY_TIMEOUT": "120"]) { $1 })
    for p in 0..<8 {
      group.enter()
      // (a thread each: Dispatch's global queue shares its few threads with other tests)
      Thread.detachNewThread {
        outputs[p] =
          (try? shell.run(["-c", script, CommandRunner.product("notify"), String(p)], timeout: 300))?.stdout
          ?? "runner failed"
        group.leave()
      }
    }
    group.wait()
    #expect(outputs.allSatisfy { $0.isEmpty }, "\(outputs)")
    let pending = try #require(try json(try notify.run(["list", "--json"]).stdout) as? [[String: Any]])
    #expect(pending.count == 64)
    // The 64 kept are the 64 soonest of all 400 (fire slot n*7919 % 400 is a permutation).
    let kept = Set(pending.compactMap { $0["id"] as? String })
    let soonest = Set((0..<400).filter { $0 * 7919 % 400 < 64 }.map { "p\($0)" })
    #expect(kept == soonest)
    let history = try #require(
      try json(try notify.run(["history", "--json", "--limit", "1000"]).stdout) as? [[String: Any]])
    #expect(history.count == 400 - 64)
    #expect(Set(history.compactMap { $0["id"] as? String }).isDisjoint(with: kept))
    #expect(Set(history.compactMap { $0["id"] as? String }).count == 336)
  }

  @Test("8 processes creating a brand-new store at once all succeed", arguments: 0..<5)
  func concurrentCreation(round: Int) throws {
    // Given no store file yet
    let db = folder.file("fresh-\(round)/notify.db")
    // The creation protocol is under test, not the disk: the first write into a new WAL
    // syncs its header while holding the write lock, and in a loaded CI run such a sync can take
    // more than the default 5 s (SlowDiskTests covers the timeout under a slow disk).
    let shell = CommandRunner(
      executable: "/bin/sh",
      environment: ["NOTIFY_DB": db, "NOTIFY_APP": "tests", "NOTIFY_BUSY_TIMEOUT": "120"])
    // When 8 processes schedule into it at the same moment
    let script = """
      for p in 1 2 3 4 5 6 7 8; do "$0" schedule --in 1h "x$p" </dev/null >/dev/null 2>>"$1" & done; wait
      cat "$1"
      """
    let result = try shell.run([
      "-c", script, CommandRunner.product("notify"), folder.file("errors-\(round)"),
    ])
    // Then none of them failed (no busy error from two processes switching it to WAL)
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    let list = try notify.run(["list", "--json", "--db", db])
    #expect(try #require(try json(list.stdout) as? [[String: Any]]).count == 8)
  }
}
