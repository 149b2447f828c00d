import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// What quiet hours hold is the app's to withdraw: `notify cancel` removes
/// it, whoever fires, and it is never shown when quiet ends.
@Suite(.ownThreads)
struct HeldCancelFiringTests {
  func json(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
  }

  @Test(
    "a held notification cancelled during quiet hours is never shown; the one left held is",
    arguments: StdoutFirer.allCases)
  func cancelledWhileHeld(firer: StdoutFirer) throws {
    // Given quiet hours on, a firer, and two notifications it held
    let f = try FiringFixture()
    #expect(try notify(["quiet", "on"], db: f.path).status == 0)
    let firing = try StdoutFiring(f, firer)
    let due = Date() + (firer == .fireDue ? 0 : 0.3)
    try f.schedule("gone", at: due)
    try f.schedule("kept", at: due)
    try firing.act()
    #expect(waitUntil(timeout: 10) { Set(f.ids(.held)) == ["gone", "kept"] }, "\(firing.log)")
    // When the app cancels one of them
    let cancel = try notify(["cancel", "gone", "--app", "test"], db: f.path)
    // Then it is cancelled (exit 0, history `cancelled`), and list shows only the other, held
    #expect(cancel.status == 0, "\(cancel.stderr)")
    #expect(f.ids(.cancelled) == ["gone"])
    let list = try notify(["list", "--json", "--app", "test"], db: f.path)
    let items = try json(list.stdout)
    #expect(items.map { $0["id"] as? String } == ["kept"])
    #expect(items.first?["state"] as? String == "held")
    // When quiet hours end
    #expect(try notify(["quiet", "off"], db: f.path).status == 0)
    try firing.act()
    // Then, once the release has run (nothing held, the kept one recorded delivered), only
    // the kept one was shown
    #expect(
      waitUntil(timeout: 10, interval: 0.1) { QuietState.of(f)?.held == 0 && f.ids(.delivered) == ["kept"] },
      "\(firing.log)")
    #expect(firing.printed.map(\.id) == ["kept"])
    #expect(f.ids(.cancelled) == ["gone"])
    firing.stop()
  }
}
