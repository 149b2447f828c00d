// embedded-app-fixture: an app that embeds the Notify library and fires its own
// notifications in process (`center.firingService()`), the way the chat client does,
// for the end-to-end tests that run every firing case against `notify daemon` and
// against an app. Not an example to copy: see examples/ for those.
//
//   embedded-app-fixture --db PATH --app APP [--sink auto|desktop|stdout]
//
// Deliveries go to the chosen sink (stdout: JSON Lines, as `notify daemon --sink stdout`).
// READY=1 goes to $NOTIFY_SOCKET once the firing loop has armed its timer; activations and
// dismissals the app hears of are written to stderr as `event: KIND ID REASON`. SIGTERM
// or SIGINT stop it gracefully.
import Foundation
import Logging
import Notify
import NotifyFiring
import ServiceLifecycle

@main
enum EmbeddedAppFixture {
  static func main() async {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ flag: String) -> String? {
      guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
      defer { arguments.removeSubrange(index...(index + 1)) }
      return arguments[index + 1]
    }
    let db = value("--db")
    let app = value("--app") ?? "test"
    let sink = value("--sink").flatMap(SinkChoice.init(rawValue:)) ?? .auto
    do {
      let center = try LocalNotificationCenter(app: app, storePath: db, sink: sink)
      let events = center.events
      let group = ServiceGroup(
        configuration: .init(
          services: [.init(service: center.firingService())], gracefulShutdownSignals: [.sigterm, .sigint],
          logger: Logger(label: "fixture")))
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
          while !center.isFiring { try await Task.sleep(for: .milliseconds(5)) }
          ServiceNotifier().ready(status: "firing for \(app)")
        }
        tasks.addTask {
          for await event in events {
            switch event.kind {
            case .activated(let key): report("event: activated \(event.notification.id) \(key)")
            case .dismissed(let reason): report("event: dismissed \(event.notification.id) \(reason ?? "-")")
            case .delivered: break
            }
          }
        }
        // Until SIGTERM or SIGINT; the helpers above end with it.
        try await group.run()
        tasks.cancelAll()
      }
    } catch {
      report("embedded-app-fixture: error: \(error)")
      exit((error as? NotifyError)?.exitCode ?? 1)
    }
  }

  static func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
