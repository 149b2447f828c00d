import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyService

/// Categories over the bus, without a bus: `SetCategories`/`GetCategories` on a real store
/// file, and the `category` request key.
struct CategoryServiceTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_790_000_000)
  let caller = Caller(connection: ":1.8", pid: 43, uid: 1000)

  func service() throws -> SchedulerService {
    SchedulerService(
      store: try SQLiteStore(path: folder.file("notify.db")), clock: ManualClock(now: now), owner: 1000)
  }

  static func action(_ key: String, _ title: String) -> BusValue {
    .vardict([("key", .string(key)), ("title", .string(title))])
  }

  static func category(_ identifier: String, _ actions: [BusValue]) -> BusValue {
    .vardict([("identifier", .string(identifier)), ("actions", .array(element: "a{sv}", actions))])
  }

  @Test("SetCategories then GetCategories: what was set comes back, and can be set again as it is")
  func roundTrip() throws {
    let service = try service()
    let set: [BusValue] = [
      .string("org.example.Chat"),
      .array(element: "a{sv}", [Self.category("message", [Self.action("read", "Mark read")])]),
    ]
    #expect(try service.call("SetCategories", set, caller: caller).isEmpty)
    let got = try service.call("GetCategories", [.string("org.example.Chat")], caller: caller)
    #expect(
      try SQLiteStore(path: folder.file("notify.db")).categories(app: "org.example.Chat") == [
        NotificationCategory(identifier: "message", actions: [.button(key: "read", title: "Mark read")])
      ])
    guard case .array("a{sv}", let items)? = got.first, items.count == 1 else {
      Issue.record("GetCategories returned \(got)")
      return
    }
    // The reply is what SetCategories takes: setting it again changes nothing
    #expect(try service.call("SetCategories", [.string("org.example.Chat"), got[0]], caller: caller).isEmpty)
    #expect(try service.call("GetCategories", [.string("org.example.Chat")], caller: caller) == got)
  }

  @Test("a bad category refuses the whole call; the categories stay as they were")
  func refusedWhole() throws {
    let service = try service()
    let good = Self.category("message", [Self.action("read", "Read")])
    _ = try service.call("SetCategories", [.string("a.b"), .array(element: "a{sv}", [good])], caller: caller)
    for bad in [
      Self.category("bad id", []), Self.category("x", [Self.action("default", "D")]),
      .vardict([("identifier", .string("y")), ("colour", .string("red"))]),
    ] {
      let error = #expect(throws: SchedulerError.self) {
        _ = try service.call(
          "SetCategories", [.string("a.b"), .array(element: "a{sv}", [good, bad])], caller: caller)
      }
      #expect(error?.name.hasSuffix("InvalidArgs") == true, "\(String(describing: error))")
    }
    #expect(
      try SQLiteStore(path: folder.file("notify.db")).categories(app: "a.b").map(\.identifier) == ["message"])
  }

  @Test("the request key 'category' names the category; a bad one is refused")
  func requestKey() throws {
    let decoder = RequestDecoder(app: "a.b", now: now, zones: testZones(testZone("UTC")))
    let n = try decoder.scheduled([
      ("body", .string("b")), ("in", .string("1h")), ("category", .string("message")),
    ]).notification
    #expect(n.categoryIdentifier == "message")
    #expect(throws: SchedulerError.self) {
      _ = try decoder.presented([("body", .string("b")), ("category", .string("no way"))])
    }
  }
}
