import Foundation
import NotifyTestSupport
import Testing

/// `notify category set/list/remove` and `schedule --category`, running the
/// built binary.
@Suite("categories: notify category, schedule --category, end to end", .ownThreads)
struct CategoryCommandTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "chat"])
  }

  func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  @Test("set, list (text and JSON), replace, remove; removing one that is not there exits 1")
  func setListRemove() throws {
    // Given a category set with the flags of notify schedule
    let set = try notify.run([
      "category", "set", "message", "--text-button", "reply:Reply", "--placeholder", "Message",
      "--button", "read:Mark read:open", "--snooze", "10m",
    ])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout.hasPrefix("message  --button read:\"Mark read\":open --text-button reply:Reply"))
    // Then list shows it, and --json has the notification's action shape
    let listed = try notify.run(["category", "list"])
    #expect(listed.stdout == set.stdout)
    let array = try #require(
      try json(try notify.run(["category", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(array.count == 1 && array[0]["identifier"] as? String == "message")
    let actions = try #require(array[0]["actions"] as? [[String: Any]])
    #expect(actions.map { $0["key"] as? String } == ["read", "reply", "notify.snooze.600"])
    #expect(actions.map { $0["kind"] as? String } == ["button", "text-input", "snooze"])
    #expect(actions[0]["opensApp"] as? Bool == true && actions[1]["placeholder"] as? String == "Message")
    // And another app does not see it
    #expect(try notify.run(["category", "list", "--app", "mail", "--json"]).stdout == "[]\n")
    // When it is set again, it is replaced, not added
    #expect(try notify.run(["category", "set", "message", "--button", "a:A"]).status == 0)
    let replaced = try #require(
      try json(try notify.run(["category", "list", "--json"]).stdout) as? [[String: Any]])
    #expect(replaced.count == 1 && (replaced[0]["actions"] as? [[String: Any]])?.count == 1)
    // When it is removed, it is gone; removing it again exits 1 and says so
    #expect(try notify.run(["category", "remove", "message"]).status == 0)
    #expect(try notify.run(["category", "list", "--json"]).stdout == "[]\n")
    let again = try notify.run(["category", "remove", "message"])
    #expect(again.status == 1)
    #expect(again.stderr.contains("has no category 'message'"), "\(again.stderr)")
  }

  @Test(
    "schedule --category: stored and shown as categoryIdentifier; an unregistered one is allowed with a warning"
  )
  func scheduleWithCategory() throws {
    #expect(try notify.run(["category", "set", "message", "--button", "read:Read"]).status == 0)
    // When a notification names the registered category
    let known = try notify.run([
      "schedule", "--id", "k", "--in", "1h", "--category", "message", "--json", "hi",
    ])
    // Then nothing is warned, and its JSON names the category and has no buttons of its own
    #expect(known.status == 0 && known.stderr.isEmpty, "\(known.stderr)")
    let item = try #require(try json(known.stdout) as? [String: Any])
    #expect(item["categoryIdentifier"] as? String == "message")
    #expect((item["actions"] as? [Any])?.isEmpty == true)
    let shown = try #require(try json(try notify.run(["show", "k", "--json"]).stdout) as? [String: Any])
    #expect(shown["categoryIdentifier"] as? String == "message")
    // When one names a category the app has not registered
    let unknown = try notify.run(["schedule", "--id", "u", "--in", "1h", "--category", "later", "hi"])
    // Then it is stored all the same, with a warning that says how to register it
    #expect(unknown.status == 0)
    #expect(unknown.stderr.contains("warning: app 'chat' has no category 'later'"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("notify category set --app chat later"), "\(unknown.stderr)")
    let listed = try #require(try json(try notify.run(["list", "--json"]).stdout) as? [[String: Any]])
    #expect(listed.compactMap { $0["categoryIdentifier"] as? String }.sorted() == ["later", "message"])
    // And buttons of its own with a category: its own win, and it says so
    let both = try notify.run([
      "schedule", "--id", "b", "--in", "1h", "--category", "message", "--button", "mine:Mine", "hi",
    ])
    #expect(both.status == 0 && both.stderr.contains("buttons of its own"), "\(both.stderr)")
  }

  @Test("fire-due: the delivery has the category's buttons as they are when it fires")
  func fireDueUsesTheCategoryAtDelivery() throws {
    #expect(try notify.run(["category", "set", "message", "--button", "read:Read"]).status == 0)
    #expect(
      try notify.run(["schedule", "--id", "a", "--in", "1s", "--category", "message", "one"]).status == 0)
    // When the category changes before it fires
    #expect(try notify.run(["category", "set", "message", "--button", "archive:Archive"]).status == 0)
    // Then fire-due prints the new button
    var line: [String: Any]?
    let fired = waitUntil(timeout: 10, interval: 0.2) {
      let run = try? notify.run(["fire-due", "--sink", "stdout"])
      if let text = run?.stdout.split(separator: "\n").first {
        line = (try? json(String(text))) as? [String: Any]
      }
      return line != nil
    }
    #expect(fired)
    let keys = (line?["actions"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
    #expect(keys == ["archive"])
  }
}
