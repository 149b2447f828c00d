import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A reply comes from the notification server, so notify cannot refuse it: it keeps one as
/// long as a body may be, cut at a character boundary, and history notes
/// the cut.
@Suite(.serialized, .ownThreads)
struct ReplyLimitTests {
  @Test("a reply longer than a body is kept cut to the body's limit, and history says so")
  func longReplyIsTruncated() throws {
    // Given a server with inline reply, a daemon, and no process of the app
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("none"), capabilities: "body,actions,inline-reply")
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule(
      "msg", at: Date() + 0.3, app: "chat",
      actions: [.textInput(key: "reply", title: "Reply", placeholder: nil, buttonTitle: nil)])
    try #require(
      waitUntil(timeout: 10) { desktop.calls.contains { $0["call"] as? String == "Notify" } },
      "\(desktop.calls)")
    let call = try #require(desktop.calls.first { $0["call"] as? String == "Notify" })
    // When the user sends a reply of 4,000 characters then an emoji, then 999 more letters
    let reply = String(repeating: "a", count: 3999) + "👩‍👩‍👧" + String(repeating: "b", count: 1000)
    try desktop.drive("Reply", "\(try #require(call["id"] as? Int))", reply)
    // Then history keeps the first 4,000 characters (the emoji whole) and notes the cut
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(daemon.stderr)")
    let activated = try #require(try f.events(.activated).first)
    let kept = String(repeating: "a", count: 3999) + "👩‍👩‍👧"
    guard case .string(let text)? = activated.detail["text"] else {
      Issue.record("no text in \(activated.detail.keys)")
      return
    }
    #expect(text.count == 4000 && text == kept, "\(text.count) characters, ending \(text.suffix(3))")
    #expect(activated.detail["truncated"] != nil, "\(activated.detail.keys)")
    // And the response waiting for the app holds the same text
    let waiting = try f.store.takeWaitingResponses(app: "chat")
    #expect(waiting.count == 1)
    #expect(waiting.first?.userText == kept, "\(waiting.first?.userText?.count ?? 0) characters")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}
