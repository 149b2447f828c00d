import Foundation
import NotifyTestSupport
import Testing

/// The `Schedule` keys of interface Version 4, `wake` and `expireLate` (docs/dbus.md), on a
/// real bus: stored as `notify schedule --wake --expire-late` stores them, shown by
/// `ListPending` and `notify list --json`, and a bad value refused with `InvalidArgs`.
@Suite(
  "Schedule's wake and expireLate keys over D-Bus", .ownThreads,
  .needsSchedulerBus
)
struct SchedulerWakeKeysTests {
  static let app = "org.example.Wake"

  /// `notify list --json --app` for the app, as objects by id.
  func listed(_ bus: SchedulerBus) throws -> [String: [String: Any]] {
    let result = try bus.notify("list", "--json", "--app", Self.app)
    let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    return Dictionary(
      uniqueKeysWithValues: list.compactMap { item in (item["id"] as? String).map { ($0, item) } })
  }

  @Test("wake and expireLate are stored and listed as the command stores them")
  func storedAndListed() throws {
    // Given the daemon on a bus
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // When a batch is scheduled with wake and expireLate as seconds, as a duration's text,
    // and without either
    let scheduled = try bus.gdbus(
      "Schedule", Self.app,
      "[{'id': <'alarm'>, 'title': <'Alarm'>, 'at': <int64 4102444800000>, 'wake': <true>, 'expireLate': <uint32 1800>}, {'id': <'late'>, 'title': <'Late'>, 'in': <'1h'>, 'wake': <false>, 'expireLate': <'2h30m'>}, {'id': <'plain'>, 'title': <'Plain'>, 'in': <'1h'>}]"
    )
    #expect(
      scheduled.stdout.contains("(['alarm', 'late', 'plain'], @as [])"),
      "\(scheduled.stdout)\(scheduled.stderr)")
    // Then the store has them as the command shows them
    let rows = try listed(bus)
    #expect(rows["alarm"]?["wake"] as? Bool == true)
    #expect(rows["alarm"]?["expireLate"] as? Int == 1800)
    #expect(rows["late"]?["wake"] as? Bool == false)
    #expect(rows["late"]?["expireLate"] as? Int == 9000)
    #expect(rows["plain"]?["wake"] as? Bool == false)
    #expect(rows["plain"]?["expireLate"] is NSNull)
    // And ListPending carries wake, and expireLate where there is one
    let pending = try bus.gdbus("ListPending", Self.app)
    #expect(pending.status == 0, "\(pending.stderr)")
    let items = pending.stdout.components(separatedBy: "'id': <").dropFirst()
    let byID = Dictionary(
      uniqueKeysWithValues: items.map { item in
        (String(item.prefix { $0 != ">" }).trimmingCharacters(in: ["'"]), item)
      })
    #expect(byID["alarm"]?.contains("'wake': <true>") == true, "\(pending.stdout)")
    #expect(byID["alarm"]?.contains("'expireLate': <int64 1800>") == true, "\(pending.stdout)")
    #expect(byID["late"]?.contains("'wake': <false>") == true)
    #expect(byID["late"]?.contains("'expireLate': <int64 9000>") == true)
    #expect(byID["plain"]?.contains("'wake': <false>") == true)
    #expect(byID["plain"]?.contains("expireLate") == false)
  }

  /// A bad value for one of the keys, and words the error carries.
  struct Bad: CustomTestStringConvertible, Sendable {
    var name: String
    var keys: String
    var says: String
    var testDescription: String { name }
  }

  static let bad: [Bad] = [
    Bad(
      name: "a negative expireLate", keys: "'expireLate': <int32 -5>",
      says: "expireLate is -5 seconds; a notification expires from 1 second to 1 year late"),
    Bad(
      name: "an expireLate of 0", keys: "'expireLate': <uint32 0>",
      says: "expireLate is 0 seconds; a notification expires from 1 second to 1 year late"),
    Bad(
      name: "an expireLate over a year", keys: "'expireLate': <uint32 31536001>",
      says: "expireLate is 31536001 seconds"),
    Bad(
      name: "an expireLate of the wrong type", keys: "'expireLate': <true>",
      says: "'expireLate' is a 'b', not an integer or s"),
    Bad(name: "an expireLate that is no duration", keys: "'expireLate': <'soon'>", says: "'expireLate'"),
    Bad(name: "a wake of the wrong type", keys: "'wake': <'yes'>", says: "'wake' is a 's'"),
  ]

  @Test("a bad wake or expireLate is InvalidArgs with the rule's words, and nothing is stored")
  func badValuesAreRefused() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    for bad in Self.bad {
      // When a request carries the bad value
      let call = try bus.gdbus("Schedule", Self.app, "[{'title': <'t'>, 'in': <'1h'>, \(bad.keys)}]")
      // Then the call fails with InvalidArgs, saying what is wrong
      #expect(call.status != 0, "\(bad.name)")
      #expect(
        call.stderr.contains("GDBus.Error:io.github.notify.Scheduler1.Error.InvalidArgs: "),
        "\(bad.name): \(call.stderr)")
      #expect(call.stderr.contains(bad.says), "\(bad.name): \(call.stderr)")
    }
    // And nothing was stored
    #expect(try bus.pendingIDs(app: Self.app).isEmpty)
    #expect(bus.answers())
  }
}
