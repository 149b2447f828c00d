// sandbox-center-fixture: an app embedding the Notify library, run inside a bwrap sandbox
// with a /.flatpak-info by `SandboxCenterTests`, which checks that its center goes through
// notify's service on the host (docs/sandboxes.md). Not an example to copy.
//
//   sandbox-center-fixture COMMAND [ID] [--app APP] [--db PATH]
//
// COMMAND: `probe` (prints `backend: service` or `backend: own-store`), `add ID` (in an
// hour, with a button `yes`), `present ID` (now, with a button `yes`), `pending` (prints
// `pending: ID ...`), `remove ID`, `delivered` (prints `delivered: ID ...`, what is on
// screen), `taken` (prints `taken: ID KEY ...`, the answers kept for the app, taken once),
// `listen` (prints `ready`, then `response ID KEY` for each answer of `center.events`). `--app` defaults to org.example.Probe; `--db` is the center's
// own store (inside the sandbox). A failure prints `error: KIND: TEXT` and exits 1.
import Foundation
import Notify

@main
enum SandboxCenterFixture {
  static func main() async {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ flag: String) -> String? {
      guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
      defer { arguments.removeSubrange(index...(index + 1)) }
      return arguments[index + 1]
    }
    let app = value("--app") ?? "org.example.Probe"
    let db = value("--db") ?? "/tmp/own.db"
    let command = arguments.first ?? "probe"
    let id = arguments.count > 1 ? arguments[1] : "probe-1"
    let content = NotificationContent(
      title: "Probe", body: "from the sandbox", userInfo: ["room": "4B"],
      actions: [.button(key: "yes", title: "Yes")])
    do {
      let center = try LocalNotificationCenter(app: app, storePath: db, sink: .stdout)
      switch command {
      case "probe":
        say("backend: \(center.backendKind == .ownStore ? "own-store" : "service")")
      case "add":
        try await center.add(
          NotificationRequest(identifier: id, content: content, trigger: .after(.seconds(3600))))
        say("added \(id)")
      case "present":
        try await center.add(NotificationRequest(identifier: id, content: content, trigger: nil))
        say("presented \(id)")
      case "pending":
        let ids = try await center.pendingNotificationRequests().map(\.identifier)
        say((["pending:"] + ids).joined(separator: " "))
      case "remove":
        try await center.removePendingNotificationRequests(withIdentifiers: [id])
        say("removed \(id)")
      case "delivered":
        let ids = try await center.delivered().map(\.notificationID)
        say((["delivered:"] + ids).joined(separator: " "))
      case "taken":
        let taken = await center.takeKeptResponses().map { response in
          if case .activated(let key) = response.kind {
            "\(response.notification.id) \(key)"
          } else {
            response.notification.id
          }
        }
        say((["taken:"] + taken).joined(separator: " "))
      case "listen":
        let responses = center.events.makeAsyncIterator()
        say("ready")
        var iterator = responses
        while let response = await iterator.next() {
          if case .activated(let key) = response.kind {
            say(
              "response \(response.notification.id) \(key) room=\(response.userInfo["room"]?.stringValue ?? "-")"
            )
          }
        }
      default:
        say("error: usage: unknown command \(command)")
        exit(2)
      }
    } catch {
      say("error: \(error)")
      exit(1)
    }
  }

  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
