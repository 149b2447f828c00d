import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("NotificationAction: the model, its JSON and its rules")
struct NotificationActionTests {
  @Test(
    "snooze actions carry their interval in the key and a readable label",
    arguments: [
      (45, "notify.snooze.45", "Snooze 45 s"), (300, "notify.snooze.300", "Snooze 5 min"),
      (5400, "notify.snooze.5400", "Snooze 90 min"), (7200, "notify.snooze.7200", "Snooze 2 h"),
      (86_400, "notify.snooze.86400", "Snooze 1 day"), (172_800, "notify.snooze.172800", "Snooze 2 days"),
    ])
  func snoozeLabels(seconds: Int, key: String, title: String) {
    let action = NotificationAction.snooze(seconds: seconds)
    #expect(action.key == key)
    #expect(action.title == title)
    #expect(action.snoozeSeconds == seconds)
  }

  @Test("every kind survives the JSON the store and list --json use, seeded random values")
  func jsonRoundTrip() throws {
    var generator = SeededGenerator(seed: 13)
    func word() -> String {
      String(
        (0..<Int.random(in: 1...12, using: &generator)).map { _ in
          "abcXYZ09._-é😀 ".randomElement(using: &generator)!
        })
    }
    for _ in 0..<500 {
      let kind: NotificationAction.Kind
      switch Int.random(in: 0...2, using: &generator) {
      case 0: kind = .button
      case 1:
        kind = .textInput(
          placeholder: Bool.random(using: &generator) ? word() : nil,
          buttonTitle: Bool.random(using: &generator) ? word() : nil)
      default: kind = .snooze(seconds: Int.random(in: 1...2_592_000, using: &generator))
      }
      let action = NotificationAction(
        key: word(), title: word(), opensApp: Bool.random(using: &generator),
        destructive: Bool.random(using: &generator), kind: kind)
      let text = NotificationAction.storeText([action, action])
      #expect(NotificationAction.fromStoreText(text) == [action, action])
      #expect(try NotificationAction(json: JSONParser.parse(action.jsonValue.compactText)) == action)
    }
    #expect(NotificationAction.storeText([]) == nil)
    #expect(NotificationAction.fromStoreText(nil) == [])
  }

  @Test("a valid set passes: four actions, one reply, keys with . _ : -")
  func validSet() throws {
    try Validator.actions([
      .button(key: "mark:read", title: "Mark read"),
      .button(key: "a_b-c.d", title: "Archive", destructive: true),
      .textInput(key: "reply", title: "Reply", placeholder: "Say", buttonTitle: "Send"),
      .snooze(seconds: 600),
    ])
  }

  @Test(
    "bad sets are refused naming the problem",
    arguments: [
      (
        "two replies",
        [NotificationAction.textInput(key: "a", title: "A"), .textInput(key: "b", title: "B")],
        "text-input actions"
      ),
      (
        "snooze key forged",
        [NotificationAction(key: "notify.snooze.5", title: "S", kind: .snooze(seconds: 60))], "does not match"
      ),
      ("snooze too long", [NotificationAction.snooze(seconds: 31 * 86_400)], "out of range"),
      ("empty key", [NotificationAction.button(key: "", title: "A")], "invalid action key"),
    ] as [(String, [NotificationAction], String)])
  func refused(name: String, actions: [NotificationAction], says: String) {
    #expect(throws: NotifyError.self, "\(name)") { try Validator.actions(actions) }
    do {
      try Validator.actions(actions)
    } catch {
      #expect(error.kind == .invalidData)
      #expect(error.description.contains(says), "\(name): \(error)")
    }
  }
}
