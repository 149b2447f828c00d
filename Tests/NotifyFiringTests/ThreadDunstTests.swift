import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A thread of five on a real notification server (dunst on Xvfb): one bubble on screen,
/// replaced in place, its body the latest text and the count.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct ThreadDunstTests {
  @Test("five notifications of one thread are one bubble on dunst; another thread is a second one")
  func oneBubblePerThread() throws {
    // Given dunst on its own display, with nothing on screen
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    _ = try desktop.dunstctl("close-all")
    func displayed() -> Int {
      Int(
        ((try? desktop.dunstctl("count", "displayed")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
        ?? -1
    }
    #expect(waitUntil(timeout: 10) { displayed() == 0 })
    // When five notifications of thread irc.ada are shown, one after another
    for index in 1...5 {
      let shown = try notify(
        [
          "now", "--app", "chat", "--id", "m\(index)", "--thread", "irc.ada", "--title", "ada", "--sink",
          "desktop",
          "message \(index)",
        ], db: f.path, environment: desktop.environment)
      #expect(shown.status == 0, "\(shown.stderr)")
    }
    // Then dunst shows one bubble, and all five were delivered
    #expect(waitUntil(timeout: 10) { displayed() == 1 }, "dunst shows \(displayed())")
    #expect(try f.events(.delivered).map(\.notificationID) == ["m1", "m2", "m3", "m4", "m5"])
    // When another thread's notification comes
    let other = try notify(
      [
        "now", "--app", "chat", "--id", "b1", "--thread", "irc.bob", "--title", "bob", "--sink", "desktop",
        "hi",
      ],
      db: f.path, environment: desktop.environment)
    #expect(other.status == 0, "\(other.stderr)")
    // Then it is a bubble of its own beside the first
    #expect(waitUntil(timeout: 10) { displayed() == 2 }, "dunst shows \(displayed())")
    // And, closed, the first thread's one bubble read its latest text and the count
    _ = try desktop.dunstctl("close-all")
    #expect(waitUntil(timeout: 10) { displayed() == 0 })
    let json = try desktop.dunstctl("history")
    let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let entries = (root?["data"] as? [[[String: Any]]])?.first ?? []
    func field(_ entry: [String: Any], _ name: String) -> String? {
      (entry[name] as? [String: Any])?["data"] as? String
    }
    let ada = entries.filter { field($0, "summary") == "ada" }.compactMap { field($0, "body") }
    #expect(ada == ["message 5\n5 new"], "\(json)")
  }
}
