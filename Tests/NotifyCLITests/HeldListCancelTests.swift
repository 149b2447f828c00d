import Foundation
import NotifyTestSupport
import Testing

/// `notify list` shows what quiet hours hold, and `notify cancel` withdraws
/// it, as for pending notifications. Held here by `notify now` during quiet hours.
@Suite(.ownThreads)
struct HeldListCancelTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "chat"])
  }

  /// Runs `arguments`, expecting exit 0.
  @discardableResult
  func run(_ arguments: [String]) throws -> CommandRunner.Result {
    let result = try notify.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result
  }

  func jsonArray(_ arguments: [String]) throws -> [[String: Any]] {
    let result = try run(arguments)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)"
    )
  }

  /// Quiet hours on, and `ids` held (shown now, held instead).
  func hold(_ ids: [String]) throws {
    try run(["quiet", "on"])
    for id in ids { try run(["now", "--id", id, "--title", "title \(id)", "--sink", "stdout"]) }
  }

  @Test("list shows held ones first, oldest first, with state held; the text listing marks them")
  func listShowsHeld() throws {
    // Given one notification pending and two held
    try run(["schedule", "--id", "later", "--in", "1h", "--title", "later"])
    try hold(["m1", "m2"])
    // When listed as JSON
    let items = try jsonArray(["list", "--json"])
    // Then the held ones come first, marked held with their occurrence and when they were held
    #expect(items.map { $0["id"] as? String } == ["m1", "m2", "later"])
    #expect(items.map { $0["state"] as? String } == ["held", "held", "pending"])
    #expect(items.first?["occurrence"] as? Int == 1)
    #expect(items.first?["heldAt"] is String)
    #expect(items.last?["heldAt"] == nil)
    // And the text listing marks them
    let lines = try run(["list"]).stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 3, "\(lines)")
    #expect(lines[0].contains("  m1  held for quiet hours  title m1"), "\(lines)")
    #expect(!lines[2].contains("held"), "\(lines)")
  }

  @Test(
    "cancel ID and cancel --all withdraw held ones, each recorded cancelled; quiet ending then shows nothing")
  func cancelWithdrawsHeld() throws {
    // Given three notifications held
    try hold(["m1", "m2", "m3"])
    // When one is cancelled by id, then all
    let one = try notify.run(["cancel", "m1"])
    let all = try notify.run(["cancel", "--all"])
    // Then both take effect, nothing is held, and history has each cancel
    #expect(one.status == 0, "\(one.stderr)")
    #expect(
      all.status == 0 && all.stderr == "notify: cancelled 2 notifications of app 'chat'\n", "\(all.stderr)")
    let quiet = try #require(
      try JSONSerialization.jsonObject(with: Data(try run(["quiet", "--json"]).stdout.utf8)) as? [String: Any]
    )
    #expect(quiet["held"] as? Int == 0)
    let cancelled = try jsonArray(["history", "--json"]).filter { $0["event"] as? String == "cancelled" }
    #expect(Set(cancelled.compactMap { $0["id"] as? String }) == ["m1", "m2", "m3"])
    #expect(try jsonArray(["list", "--json"]).isEmpty)
    // And a second cancel of one finds it no longer there (exit 1)
    #expect(try notify.run(["cancel", "m1"]).status == 1)
  }
}
