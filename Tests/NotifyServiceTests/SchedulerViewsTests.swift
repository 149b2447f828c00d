import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import Notify
@testable import NotifyService

/// The methods of version 3 on a real store file, without a bus: what is on screen, the
/// history, what quiet hours hold, the answers that waited and the authorization request,
/// each the calling app's only, and what the library's client reads back from them.
struct SchedulerViewsTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_790_000_000)
  let probe = Caller(connection: ":1.20", pid: 50, uid: 1000, sandbox: .flatpak(app: "org.example.Probe"))
  let other = Caller(connection: ":1.21", pid: 51, uid: 1000)

  func notification(_ id: String, app: String) -> LocalNotification {
    LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(now)), title: "T \(id)", userInfo: ["k": "v"],
      threadIdentifier: "t1", createdAt: now)
  }

  func delivery(_ id: String, app: String) -> Delivery {
    Delivery(
      notification: notification(id, app: app), occurrence: 1, fireDate: now, deliveredAt: now, late: false)
  }

  /// A store where org.example.Probe and org.example.Other each have one notification on
  /// screen, one held for quiet hours and one answer waiting.
  func seeded() throws -> (SchedulerService, SQLiteStore) {
    let store = try SQLiteStore(path: folder.file("notify.db"))
    for (index, app) in ["org.example.Probe", "org.example.Other"].enumerated() {
      let tag = app == "org.example.Probe" ? "p" : "o"
      try store.recordPresented(
        delivery("\(tag)-shown", app: app), bubble: ServerBubbleID(UInt32(10 + index), server: nil))
      var held = delivery("\(tag)-held", app: app)
      held.held = true
      try store.recordHeld(held)
      _ = try store.leave(
        NotificationResponse(
          notification: notification("\(tag)-shown", app: app), actionKey: "yes", occurrence: 1,
          activationToken: nil, date: now, userText: "hi \(tag)"),
        launching: false)
    }
    return (SchedulerService(store: store, clock: ManualClock(now: now), owner: 1000), store)
  }

  func records(_ values: [BusValue]) -> [BusValue] {
    guard case .array(_, let records)? = values.first else { return [] }
    return records
  }

  @Test func aSandboxedCallerGetsItsOwnAppsDeliveredHeldHistoryAndAnswersOnly() throws {
    let (service, _) = try seeded()
    // When org.example.Probe, in its sandbox, asks for "mine" ("")
    let delivered = records(try service.call("ListDelivered", [.string("")], caller: probe))
      .compactMap(SchedulerClient.historyEvent)
    let held = records(try service.call("ListHeld", [.string("")], caller: probe)).compactMap {
      SchedulerClient.held($0, app: "org.example.Probe")
    }
    let history = records(try service.call("ListHistory", [.string(""), .uint32(64)], caller: probe))
      .compactMap(SchedulerClient.historyEvent)
    let answers = records(try service.call("TakeResponses", [.string("")], caller: probe)).compactMap {
      $0.vardictEntries.flatMap { SchedulerClient.response($0, app: "org.example.Probe") }
    }
    // Then each is Probe's, read back as the library's values
    #expect(delivered.map(\.notificationID) == ["p-shown"])
    #expect(delivered.first?.detail["title"] == .string("T p-shown"))
    #expect(delivered.first?.detail["threadIdentifier"] == .string("t1"))
    #expect(delivered.first?.at == now)
    #expect(held.map(\.notification.id) == ["p-held"])
    #expect(held.first?.fireDate == now && held.first?.heldAt == now)
    #expect(Set(history.map(\.notificationID)) == ["p-shown", "p-held"])
    #expect(history.allSatisfy { $0.app == "org.example.Probe" })
    #expect(answers.map(\.notification.id) == ["p-shown"])
    #expect(answers.first?.userText == "hi p")
    // And the answers were taken once: a second call has none, Other's still wait
    #expect(records(try service.call("TakeResponses", [.string("")], caller: probe)).isEmpty)
    let others = records(try service.call("TakeResponses", [.string("org.example.Other")], caller: other))
    #expect(others.count == 1)
  }

  @Test(arguments: ["ListDelivered", "ListHeld", "TakeResponses"])
  func aSandboxedCallerNamingAnotherAppIsRefusedAndTakesNothing(member: String) throws {
    let (service, store) = try seeded()
    // When Probe names Other
    let error = #expect(throws: SchedulerError.self) {
      _ = try service.call(member, [.string("org.example.Other")], caller: probe)
    }
    #expect(error?.name == "io.github.notify.Scheduler1.Error.NotAllowed")
    // Then Other's answers still wait
    #expect(try store.takeWaitingResponses(app: "org.example.Other").count == 1)
  }

  @Test func historyIsBoundedAndAuthorizationIsRecordedAsTheLibraryRecordsIt() throws {
    let (service, store) = try seeded()
    // A limit past the bound answers at most the bound; 1 answers the newest only
    let one = records(try service.call("ListHistory", [.string(""), .uint32(1)], caller: probe))
    #expect(one.count == 1)
    #expect(SchedulerService.maximumHistory == 1000)
    // RequestAuthorization: alerts and badges asked, unknown bits ignored; what the settings grant
    let answer = try service.call("RequestAuthorization", [.string(""), .uint32(1 | 4 | 64)], caller: probe)
    #expect(answer == [.uint32(5)])
    #expect(try store.appSettings(app: "org.example.Probe").requested == [.banner, .badge])
  }
}
