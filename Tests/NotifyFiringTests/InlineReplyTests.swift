import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Text-input actions on the scripted notification server (dunst has no inline reply): a
/// reply field where the server advertises KDE's `inline-reply`, a button that opens the app
/// where it does not, and nothing but a note where the server shows no actions.
@Suite(.serialized, .ownThreads)
struct InlineReplyTests {
  static let reply = NotificationAction.textInput(
    key: "reply", title: "Reply", placeholder: "Message to bob", buttonTitle: "Send")

  func shownCall(_ desktop: ScriptedDesktop) throws -> [String: Any] {
    try #require(
      waitUntil(timeout: 10) { desktop.calls.contains { $0["call"] as? String == "Notify" } },
      "\(desktop.calls)")
    return try #require(desktop.calls.first { $0["call"] as? String == "Notify" })
  }

  @Test(
    "a reply typed into the bubble reaches history and the app (running, or when it asks), never the log",
    arguments: [false, true])
  func inlineReply(appRunning: Bool) throws {
    // Given a server with inline reply, a daemon, and (or not) the app running without firing
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("none"), capabilities: "body,actions,inline-reply")
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    let app =
      appRunning
      ? try ChildProcess.notify(
        ["--app", "chat", "--sink", "desktop", "--no-fire"], db: f.path, folder: f.folder, name: "app",
        environment: desktop.bus, program: "embedded-app-fixture") : nil
    if let app { #expect(app.waitReady(), "\(app.stderr)") }
    // When a notification with a reply action is shown
    try f.schedule(
      "msg", at: Date() + 0.3, app: "chat", actions: [Self.reply, .button(key: "read", title: "Mark read")])
    let call = try shownCall(desktop)
    // Then the reply is KDE's reply field, with its placeholder and send label (after the
    // default action only while the app is online: "chat" has no desktop entry here)
    #expect(
      call["actions"] as? [String]
        == (appRunning ? ["default", "View"] : []) + ["inline-reply", "Reply", "read", "Mark read"])
    let hints = try #require(call["hints"] as? [String: Any])
    #expect(hints["x-kde-reply-placeholder-text"] as? String == "Message to bob")
    #expect(hints["x-kde-reply-submit-button-text"] as? String == "Send")
    // When the user types a reply into it
    let id = try #require(call["id"] as? Int)
    try desktop.drive("Reply", "\(id)", "on my way ✓")
    // Then history records the activation of "reply" with the text
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(daemon.stderr)")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "reply")
    #expect(activated.detail["text"] == .string("on my way ✓"))
    let waiting = try CommandRunner().run(["responses", "--app", "chat", "--db", f.path])
    if let app {
      // And the running app hears it with the text; nothing waits
      #expect(
        waitUntil(timeout: 10) { app.stderr.contains("event: activated msg reply text=on my way ✓") },
        "\(app.stderr)")
      #expect(waiting.stdout.isEmpty)
      app.send(SIGTERM)
      #expect(app.waitExit() == 0)
    } else {
      // And it waits for the app, which reads the text when it asks
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(waiting.stdout.utf8)) as? [String: Any],
        "\(waiting.stdout)")
      #expect(object["actionKey"] as? String == "reply")
      #expect(object["userText"] as? String == "on my way ✓")
    }
    // And the reply is the user's content: the daemon's log never has it
    #expect(!daemon.stderr.contains("on my way"), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("without inline reply the reply is a button that opens the app with the action key and no text")
  func replyButtonOpensTheApp() throws {
    // Given a server with actions but no inline reply, an Exec entry for app "chat", a daemon
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try ClickToAppTests.Applications(f.folder)
    try apps.entry("chat", "Type=Application\nName=Chat\nExec=\(try apps.launcher(app: "chat"))")
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.bus.merging(apps.environment) { $1 })
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule("msg", at: Date() + 0.3, app: "chat", actions: [Self.reply])
    let call = try shownCall(desktop)
    // Then the reply is a plain button under its own key
    #expect(call["actions"] as? [String] == ["default", "View", "reply", "Reply"])
    #expect((call["hints"] as? [String: Any])?["x-kde-reply-placeholder-text"] == nil)
    // When the user clicks it, the app (not running) is launched with the key and no text
    try desktop.drive("Click", "\(try #require(call["id"] as? Int))", "reply", "")
    #expect(waitUntil(timeout: 15) { apps.read("0.response") != nil }, "\(daemon.stderr)")
    let response = try #require(apps.read("0.response"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any])
    #expect(object["actionKey"] as? String == "reply")
    #expect(object["userText"] is NSNull)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("a server without actions shows the notification; the delivery record notes the dropped actions")
  func serverWithoutActions() throws {
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"), capabilities: "body")
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule("plain", at: Date() + 0.3, app: "a", actions: [Self.reply, .snooze(seconds: 60)])
    let call = try shownCall(desktop)
    // (no default action either: app "a" has no desktop entry and nobody of it is online)
    #expect(call["actions"] as? [String] == [])
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 })
    let delivered = try #require(try f.events(.delivered).first)
    guard case .string(let note)? = delivered.detail["note"] else {
      Issue.record("no note in \(delivered.detail)")
      return
    }
    #expect(note.contains("no 'actions' capability") && note.contains("2 dropped"), "\(note)")
    #expect(try f.events(.failed).isEmpty)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}
