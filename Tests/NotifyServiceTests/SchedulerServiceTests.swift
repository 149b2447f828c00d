import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyService

/// The methods on a real store file, without a bus: who may call, and a batch that is
/// refused whole.
struct SchedulerServiceTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  func service() throws -> SchedulerService {
    let store = try SQLiteStore(path: folder.file("notify.db"))
    return SchedulerService(store: store, clock: ManualClock(now: now), owner: 1000)
  }

  func request(_ id: String, _ extra: [(String, BusValue)] = []) -> BusValue {
    .vardict([("id", .string(id)), ("body", .string("b")), ("in", .string("1h"))] + extra)
  }

  @Test func aCallerOfAnotherUserIsRefused() throws {
    // Given a service for user 1000
    let service = try service()
    // When user 1001 (or one the bus did not name) calls
    for uid in [UInt32(1001), nil] {
      let caller = Caller(connection: ":1.7", pid: 42, uid: uid)
      #expect(throws: SchedulerError.self) {
        _ = try service.call("ListPending", [.string("org.example.App")], caller: caller)
      }
    }
    // Then the same call by user 1000 answers
    let owner = Caller(connection: ":1.8", pid: 43, uid: 1000)
    #expect(try service.call("ListPending", [.string("org.example.App")], caller: owner).count == 1)
  }

  @Test func oneBadRequestLeavesTheStoreAsItWas() throws {
    let service = try service()
    let caller = Caller(connection: ":1.9", pid: 44, uid: 1000)
    // When the second request of three has a bad badge
    let batch = BusValue.array(
      element: "a{sv}", [request("a"), request("b", [("badge", .uint32(100_000))]), request("c")])
    do {
      _ = try service.call("Schedule", [.string("org.example.App"), batch], caller: caller)
      Issue.record("the batch was taken")
    } catch {
      // Then it names the request, and nothing was stored
      #expect(error.name == "io.github.notify.Scheduler1.Error.InvalidArgs")
      #expect(error.description.hasPrefix("request 2 of 3: "), "\(error)")
    }
    let listed = try service.call("ListPending", [.string("org.example.App")], caller: caller)
    #expect(listed == [.array(element: "a{sv}", [])])
  }

  @Test func subscriptionsAreBounded() throws {
    var subscriptions = Subscriptions()
    for index in 0..<Subscriptions.appsPerConnection { try subscriptions.add(":1.5", app: "app\(index)") }
    #expect(throws: SchedulerError.self) { try subscriptions.add(":1.5", app: "one.more") }
    #expect(subscriptions.connections(hearing: "app3") == [":1.5"])
    subscriptions.drop(":1.5")
    #expect(subscriptions.apps.isEmpty)
  }

  @Test func noLaunchResponseIsFalseAndAnEmptyDictionary() throws {
    let service = try service()
    let caller = Caller(connection: ":1.10", pid: 45, uid: 1000)
    let answer = try service.call("TakeLaunchResponse", [.string("org.example.App")], caller: caller)
    #expect(answer == [.bool(false), .vardict([])])
  }
}
