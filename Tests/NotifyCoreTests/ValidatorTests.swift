import Foundation
import Testing

@testable import NotifyCore

@Suite("Validator: the input rules of SPEC §1")
struct ValidatorTests {
  /// Whether `check` accepts its input.
  func passes(_ check: () throws -> Void) -> Bool {
    (try? check()) != nil
  }

  @Test("valid ids", arguments: ["a", "Z9", "chat.room-4B:msg_17", String(repeating: "x", count: 128)])
  func validIds(_ id: String) throws {
    try Validator.id(id)
  }

  @Test(
    "invalid ids", arguments: ["", String(repeating: "x", count: 129), "a b", "a/b", "é", "a\u{1B}", "a+b"])
  func invalidIds(_ id: String) {
    let error = #expect(throws: NotifyError.self) { try Validator.id(id) }
    #expect(error?.kind == .invalidData)
    #expect(error?.description.contains("A-Z a-z 0-9 . _ : -") == true)
    #expect(error?.description.contains("\u{1B}") == false)
  }

  @Test(
    "app ids allow no colon",
    arguments: [("notify", true), ("org.example.chat-1_2", true), ("a:b", false), ("", false)])
  func apps(app: String, valid: Bool) {
    #expect(passes { try Validator.app(app) } == valid)
  }

  @Test(
    "text allows newline and tab, rejects other control characters",
    arguments: [
      ("line\nnext\ttab", true), ("emoji 🎉", true), ("nul\u{0}", false), ("bell\u{7}", false),
      ("cr\r", false), ("esc\u{1B}", false), ("del\u{7F}", false),
    ])
  func text(input: String, valid: Bool) {
    #expect(passes { try Validator.text(input, field: .body, limit: 4000) } == valid)
  }

  @Test("text length is counted in characters, up to the limit")
  func textLength() throws {
    try Validator.text(String(repeating: "é", count: 200), field: .title, limit: 200)
    let error = #expect(throws: NotifyError.self) {
      try Validator.text(String(repeating: "a", count: 201), field: .title, limit: 200)
    }
    #expect(error?.description == "title is 201 characters long: shorten it to at most 200")
  }

  @Test("badge range", arguments: [(0, true), (99_999, true), (-1, false), (100_000, false)])
  func badge(value: Int, valid: Bool) {
    #expect(passes { try Validator.badge(value) } == valid)
  }

  @Test("userInfo must be a JSON object within 4096 compact bytes")
  func userInfo() throws {
    #expect(try Validator.userInfo("{ \"room\" : \"4B\" }") == ["room": .string("4B")])
    for bad in ["[1]", "\"s\"", "not json", "{"] {
      let error = #expect(throws: NotifyError.self) { try Validator.userInfo(bad) }
      #expect(error?.kind == .invalidData)
    }
    // 4096 bytes exactly is allowed, one more is not
    let padding = 4096 - "{\"k\":\"\"}".utf8.count
    #expect(throws: Never.self) {
      try Validator.userInfo("{\"k\":\"\(String(repeating: "x", count: padding))\"}")
    }
    let error = #expect(throws: NotifyError.self) {
      try Validator.userInfo("{\"k\":\"\(String(repeating: "x", count: padding + 1))\"}")
    }
    #expect(error?.description.contains("4097 bytes") == true)
  }

  @Test(
    "sound names are plain file names",
    arguments: [
      ("chime.oga", true), ("bell 2.wav", true), ("../etc/passwd", false), ("a/b.wav", false),
      (".hidden", false),
      ("", false), ("x\u{1}", false), (String(repeating: "s", count: 256), false),
    ])
  func soundNames(name: String, valid: Bool) {
    #expect(passes { try Validator.soundName(name) } == valid)
  }

  func notification(
    title: String? = nil, body: String? = nil, sound: SoundName = .none, badge: Int? = nil,
    repeatCount: Int? = nil
  ) -> LocalNotification {
    LocalNotification(
      id: "n1", app: "notify",
      schedule: Schedule(
        fireDate: .instant(Date(timeIntervalSince1970: 0)), repeatInterval: .day, repeatCount: repeatCount),
      title: title, body: body, sound: sound, badge: badge, createdAt: Date(timeIntervalSince1970: 0))
  }

  @Test("a notification needs something to show")
  func needsContent() throws {
    try Validator.notification(notification(body: "hi"))
    try Validator.notification(notification(title: "t"))
    try Validator.notification(notification(sound: .default))
    try Validator.notification(notification(badge: 0))
    let error = #expect(throws: NotifyError.self) {
      try Validator.notification(notification(title: "", body: ""))
    }
    #expect(error?.description.contains("nothing to show") == true)
  }

  @Test("repeatCount must be positive", arguments: [(1, true), (0, false), (-2, false)])
  func repeatCount(count: Int, valid: Bool) {
    #expect(passes { try Validator.notification(notification(body: "hi", repeatCount: count)) } == valid)
  }

  @Test("a sound file name in a notification is checked too")
  func soundInNotification() {
    #expect(throws: NotifyError.self) { try Validator.notification(notification(sound: .file("../x.wav"))) }
  }
}

@Suite("Text limits bound bytes as well as characters")
struct TextByteLimitTests {
  @Test(
    "one character with ten thousand combining marks is refused with the byte count; long emoji text passes")
  func combiningMarksAreBounded() throws {
    let tower = "a" + String(repeating: "\u{301}", count: 10_000)
    #expect(tower.count == 1)
    #expect(throws: NotifyError.self) { try Validator.text(tower, field: .title, limit: Validator.maxTitle) }
    do {
      try Validator.text(tower, field: .title, limit: Validator.maxTitle)
    } catch {
      #expect(error.problem == "title is 20001 bytes of UTF-8, more than 3200")
    }
    // 100 family emoji (25 bytes each, one character each) fit a title
    let families = String(repeating: "👨‍👩‍👧‍👦", count: 100)
    #expect(families.count == 100 && families.utf8.count == 2500)
    try Validator.text(families, field: .title, limit: Validator.maxTitle)
    // A body of 4000 accented letters in any script fits.
    try Validator.text(String(repeating: "ế", count: 4000), field: .body, limit: Validator.maxBody)
  }
}
