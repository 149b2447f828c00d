import Foundation
import NotifyCore
import NotifyDesktop
import NotifyTestSupport
import Testing

@testable import NotifyService

/// History rows become the interface's signals; the interface file is what Introspect says.
struct SchedulerSignalTests {
  let at = Date(timeIntervalSince1970: 1_790_000_000)

  @Test func anActivationCarriesTheActionTheReplyAndUserInfo() throws {
    // Given an activated row with a reply
    var event = HistoryEvent(
      at: at, app: "org.example.App", notificationID: "n1", kind: .activated, reason: "reply",
      detail: ["userInfo": .object(["room": .string("4B")]), "text": .string("on my way")])
    event.occurrence = 2
    // When it becomes a signal
    let signal = try #require(SchedulerSignal(event))
    // Then it is Activated with the action key, the reply and userInfo
    #expect(signal.member == "Activated")
    #expect(signal.values[0] == .string("org.example.App") && signal.values[1] == .string("n1"))
    let details = Dictionary(
      uniqueKeysWithValues: (signal.values[2].vardictEntries ?? []).map { ($0.key, $0.value) })
    #expect(details["action"] == .string("reply"))
    #expect(details["reply"] == .string("on my way"))
    #expect(details["userInfo"] == .vardict([("room", .string("4B"))]))
    #expect(details["occurrence"] == .uint32(2))
  }

  @Test(arguments: [
    ("expired", UInt32(1)), ("dismissed-by-user", 2), ("dismissed-by-app", 3), ("closed-by-call", 3),
    ("other", 4),
  ])
  func aDismissalCarriesItsReasonAsANumber(reason: String, number: UInt32) throws {
    let event = HistoryEvent(at: at, app: "a", notificationID: "n", kind: .dismissed, reason: reason)
    let signal = try #require(SchedulerSignal(event))
    #expect(signal.member == "Dismissed")
    #expect(signal.values[2] == .uint32(number))
  }

  @Test func kindsAppsDoNotHearOfMakeNoSignal() {
    #expect(SchedulerSignal(HistoryEvent(at: at, app: "a", notificationID: "n", kind: .cancelled)) == nil)
  }

  @Test func theInstalledInterfaceIsWhatIntrospectSays() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("data/dbus/io.github.notify.Scheduler1.xml")
    let xml = try String(contentsOf: file, encoding: .utf8)
    #expect(xml.trimmingCharacters(in: .newlines) == SchedulerInterface.introspection)
  }
}
