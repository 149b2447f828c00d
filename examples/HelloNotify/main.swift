// hello-notify: the smallest useful program on the Notify library.
//
// It presents a notification now (from an APNs-style payload), schedules one three
// seconds ahead, fires it in-process and waits for its `delivered` event. Run it with
// NOTIFY_DB=/tmp/hello.db to keep your own store untouched; with --sink-stdout (or no
// desktop) deliveries come out on stdout as JSON Lines.
import Foundation
import Notify

let sink: SinkChoice = CommandLine.arguments.contains("--sink-stdout") ? .stdout : .auto

do {
  let center = try LocalNotificationCenter(app: "hello", sink: sink)

  // A message as a push server would have sent it, shown at once.
  try center.present(
    NotificationContent(apnsPayload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1}}"#))

  // A reminder in three seconds, with data to hand back on delivery.
  let events = center.events
  try center.schedule(
    NotificationContent(title: "Hello", body: "Three seconds later", userInfo: ["from": .string("hello-notify")]),
    trigger: .after(.seconds(3)), id: "hello-later")
  FileHandle.standardError.write(Data("hello-notify: scheduled 'hello-later'; waiting for it\n".utf8))

  // Fire in-process until the reminder has been delivered, then stop the service.
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await center.firingService().run() }
    for await event in events where event.kind == .delivered && event.notification.id == "hello-later" {
      FileHandle.standardError.write(Data("hello-notify: delivered, userInfo \(event.userInfo)\n".utf8))
      break
    }
    group.cancelAll()
  }
} catch let error as NotifyError {
  FileHandle.standardError.write(Data("hello-notify: error: \(error)\n".utf8))
  exit(error.exitCode)
}
