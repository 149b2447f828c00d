import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyService

/// The interface is written once, in its introspection data: every method the service
/// answers, every reply, every signal and every error name is checked against it here, both
/// ways (a member the XML declares and the service does not answer as declared fails, and
/// so does one the service has that the XML lacks).
struct SchedulerInterfaceTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_790_000_000)
  let caller = Caller(connection: ":1.8", pid: 43, uid: 1000)
  static let app = BusValue.string("org.example.Chat")

  /// A valid call of each method, in an order where each finds what it needs (a notification
  /// to cancel, one on screen is not needed: `Withdraw` of none answers nothing).
  static let calls: [(String, [BusValue])] = [
    (
      "Schedule",
      [
        app,
        .array(
          element: "a{sv}",
          [.vardict([("id", .string("n1")), ("body", .string("hi")), ("in", .string("1h"))])]),
      ]
    ),
    ("ListPending", [app]),
    ("Cancel", [app, .strings(["n1"])]),
    (
      "Schedule",
      [
        app,
        .array(
          element: "a{sv}",
          [.vardict([("id", .string("n2")), ("body", .string("hi")), ("in", .string("1h"))])]),
      ]
    ),
    ("CancelAll", [app]),
    ("Present", [app, .vardict([("id", .string("p1")), ("body", .string("now"))])]),
    ("Withdraw", [app, .strings([])]),
    ("GetBadge", [app]),
    ("SetBadge", [app, .uint32(3)]),
    ("GetSettings", [app]),
    ("TakeLaunchResponse", [app]),
    ("SetCategories", [app, .array(element: "a{sv}", [])]),
    ("GetCategories", [app]),
    ("ListDelivered", [app]),
    ("ListHistory", [app, .uint32(10)]),
    ("ListHeld", [app]),
    ("TakeResponses", [app]),
    ("RequestAuthorization", [app, .uint32(0)]),
    ("Subscribe", [app]),
    ("Unsubscribe", [app]),
    ("SetClientVersion", [.uint32(4)]),
  ]

  @Test(
    "every method the XML declares is answered with the reply signature it declares, and the service checks calls against the XML"
  )
  func methodsMatchTheXML() throws {
    // Given the service on a real store
    let service = SchedulerService(
      store: try SQLiteStore(path: folder.file("notify.db")), clock: ManualClock(now: now), owner: 1000)
    // Then the calls tried here are exactly the XML's methods
    #expect(Set(Self.calls.map(\.0)) == Set(SchedulerInterface.methods.keys))
    // And the service checks each call against the XML's argument signature
    #expect(SchedulerService.signatures == SchedulerInterface.methods.mapValues(\.inSignature))
    for (member, arguments) in Self.calls {
      let declared = try #require(SchedulerInterface.methods[member])
      // When each is called with arguments of the declared signature
      #expect(arguments.map(\.signature).joined() == declared.inSignature, "\(member)'s sample")
      let reply = try service.call(member, arguments, caller: caller)
      // Then its reply carries the declared signature
      #expect(reply.map(\.signature).joined() == declared.outSignature, "\(member)")
    }
    // And a method the XML lacks is not answered
    #expect(SchedulerService.signatures["Frobnicate"] == nil)
  }

  @Test(
    "every signal the service sends is one the XML declares, with its signature, and the XML declares no other"
  )
  func signalsMatchTheXML() throws {
    let at = Date(timeIntervalSince1970: 1_790_000_000)
    var sent: [String: String] = [:]
    for kind in [HistoryEvent.Kind.delivered, .activated, .dismissed] {
      var event = HistoryEvent(at: at, app: "a", notificationID: "n", kind: kind)
      if kind == .dismissed { event.reason = "dismissed-by-user" }
      let signal = try #require(SchedulerSignal(event))
      sent[signal.member] = signal.values.map(\.signature).joined()
    }
    #expect(sent == SchedulerInterface.signals.mapValues(\.outSignature))
  }

  @Test("the error names the service replies with are the ones the XML declares, and no other")
  func errorsMatchTheXML() {
    #expect(Set(SchedulerInterface.ErrorName.allCases.map(\.rawValue)) == Set(SchedulerInterface.errors))
    #expect(SchedulerInterface.errors.count == SchedulerInterface.ErrorName.allCases.count)
    #expect(SchedulerError.failed("").name == "org.freedesktop.DBus.Error.Failed")
    #expect(SchedulerError.storeBusy("").name == "io.github.notify.Scheduler1.Error.StoreBusy")
  }
}
