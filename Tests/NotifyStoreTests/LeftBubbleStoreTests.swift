import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

@Suite("Bubbles left by a stopping process, in the store", .ownThreads)
struct LeftBubbleStoreTests {
  let folder = TemporaryFolder()
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func bubble(_ id: String, app: String = "a", serverID: UInt32) -> ShownBubble {
    ShownBubble(
      notification: LocalNotification(
        id: id, app: app, schedule: Schedule(fireDate: .instant(base)), title: "t \(id)", body: "b",
        launchImage: "splash.png", sound: .default, badge: 3, userInfo: ["k": .string(id)], createdAt: base),
      occurrence: 2, serverID: serverID)
  }

  @Test("left bubbles are taken once, by app or all, oldest first, with what they showed")
  func takenOnce() throws {
    // Given bubbles left by two apps
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.leave([bubble("x", serverID: 7), bubble("y", app: "b", serverID: 8)], at: base)
    try store.leave([bubble("z", serverID: 9)], at: base + 1)
    // When app a's are taken
    let taken = try store.takeLeftBubbles(app: "a", now: base + 2)
    // Then they come back as left, oldest first, and only once
    #expect(taken.map(\.serverID) == [7, 9])
    let first = try #require(taken.first)
    #expect(first.occurrence == 2)
    #expect(first.notification.title == "t x" && first.notification.launchImage == "splash.png")
    #expect(first.notification.userInfo == ["k": .string("x")] && first.notification.badge == 3)
    #expect(try store.takeLeftBubbles(app: "a", now: base + 2).isEmpty)
    // And every app's are taken with nil
    #expect(try store.takeLeftBubbles(app: nil, now: base + 2).map(\.notification.id) == ["y"])
  }

  @Test("a bubble left longer than the take-over window ago is dropped, not taken")
  func windowEdge() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.leave([bubble("old", serverID: 1)], at: base)
    try store.leave([bubble("edge", serverID: 2)], at: base + 0.001)
    let now = base + 0.001 + ShownBubble.takeOverWindow
    #expect(try store.takeLeftBubbles(app: nil, now: now).map(\.notification.id) == ["edge"])
    #expect(try store.takeLeftBubbles(app: nil, now: now).isEmpty)
  }

  @Test("looking for left bubbles when there are none commits nothing, so it wakes no other firer")
  func emptyLookIsNoCommit() throws {
    // Given a store and a second connection watching its data_version
    let store = try SQLiteStore(path: folder.file("n.db"))
    let watcher = try SQLiteStore(path: folder.file("n.db"))
    _ = try watcher.changedByOthers()
    // When a firer looks for left bubbles and finds none
    #expect(try store.takeLeftBubbles(app: nil, now: base).isEmpty)
    // Then the watcher sees no commit; a bubble left is one
    #expect(try watcher.changedByOthers() == false)
    try store.leave([bubble("x", serverID: 1)], at: base)
    #expect(try watcher.changedByOthers() == true)
  }
}
