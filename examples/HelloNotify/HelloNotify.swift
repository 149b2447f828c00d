// hello-notify: the smallest useful program on the Notify library.
//
// It presents a notification now (from an APNs-style payload), schedules one three
// seconds ahead, fires it in-process and waits for its `delivered` event. Run it with
// NOTIFY_DB=/tmp/hello.db to keep your own store untouched; with --sink-stdout (or no
// desktop) deliveries come out on stdout as JSON Lines.
import Foundation
import Notify

@main
enum HelloNotify {
  static func main() async {
    let sink: SinkChoice = CommandLine.arguments.contains("--sink-stdout") ? .stdout : .auto
    do {
      try await run(sink: sink)
    } catch {
      FileHandle.standardError.write(Data("hello-notify: error: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run(sink: SinkChoice) async throws {
    let center = try LocalNotificationCenter(app: "hello", sink: sink)

    // A message as a push server would have sent it, shown at once.
    try await center.add(
      NotificationRequest(
        content: NotificationContent(
          apnsPayload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1}}"#),
        trigger: nil))

    // A reminder in three seconds, with data to hand back on delivery.
    let events = center.events
    try await center.add(
      NotificationRequest(
        identifier: "hello-later",
        content: NotificationContent(
          title: "Hello", body: "Three seconds later", userInfo: ["from": "hello-notify"]),
        trigger: .after(.seconds(3))))
    FileHandle.standardError.write(Data("hello-notify: scheduled 'hello-later'; waiting for it\n".utf8))

    // Fire in-process until the reminder has been delivered, then stop the service.
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await center.firingService().run() }
      group.addTask {
        for await event in events where event.kind == .delivered && event.notification.id == "hello-later" {
          FileHandle.standardError.write(Data("hello-notify: delivered, userInfo \(event.userInfo)\n".utf8))
          return
        }
      }
      // The first to finish is the watcher (or the service, failing); stop the other.
      try await group.next()
      group.cancelAll()
    }
  }
}
