// embedded-app-fixture: an app that embeds the Notify library and fires its own
// notifications in process (`center.firingService()`), the way the chat client does,
// for the end-to-end tests that run every firing case against `notify daemon` and
// against an app. Not an example to copy: see examples/ for those.
//
//   embedded-app-fixture [--db PATH] --app APP [--sink auto|desktop|stdout]
//                        [--presentation all|none] [--launch-response FILE [--exit]] [--no-fire]
//                        [--log-level LEVEL] [--add N]
//
// Deliveries go to the chosen sink (stdout: JSON Lines, as `notify daemon --sink stdout`).
// READY=1 goes to $NOTIFY_SOCKET once the firing loop has armed its timer; deliveries,
// activations and dismissals the app hears of are written to stderr as
// `event: KIND ID REASON`. SIGTERM or SIGINT stop it gracefully. Without --db the store is
// `NOTIFY_DB`'s (what a launched app is given). `--presentation none` shows its own
// notifications itself (nothing on the desktop). `--launch-response FILE` first takes the
// click that launched it and writes its JSON to FILE (the word `none` when there is none),
// the way iOS tutorials show the launch path; with `--exit` it then exits. `--no-fire`
// leaves its scheduled notifications to the daemon (it only listens). `--log-level info`
// raises the library's log level (`NotifyLogging.level`, warning by default) before the
// center is made, as an app that wants the library's info lines does. `--add N` schedules
// N notifications (`lib-1` ... `lib-N`, due in an hour) through the async `add`, writes
// `added ID` to stdout as each call returns, and exits: what the app was told was stored.
import Foundation
import Logging
import Notify
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones
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
    let presentation = value("--presentation")
    let launchFile = value("--launch-response")
    let exitAfterLaunch = arguments.contains("--exit")
    if let level = value("--log-level").flatMap(Logger.Level.init(rawValue:)) { NotifyLogging.level = level }
    let adds = value("--add").flatMap(Int.init)
    do {
      let center = try LocalNotificationCenter(app: app, storePath: db, sink: sink)
      if let adds {
        for index in 1...max(1, adds) {
          let id = "lib-\(index)"
          try await center.add(
            NotificationRequest(
              identifier: id, content: NotificationContent(body: "added \(index)"),
              trigger: .after(.seconds(3600))))
          FileHandle.standardOutput.write(Data("added \(id)\n".utf8))
        }
        return
      }
      if let launchFile {
        let response = try center.ownStore.takeLaunchResponse()
        let text = response.map { $0.jsonRecord.compactText } ?? "none"
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: launchFile))
        if exitAfterLaunch { return }
      }
      if presentation == "none" { center.setPresentationHandler { _ in .none } }
      let events = center.events
      let group = ServiceGroup(
        configuration: .init(
          services: [
            .init(
              service: center.firingService(firesScheduledNotifications: !arguments.contains("--no-fire")))
          ], gracefulShutdownSignals: [.sigterm, .sigint],
          logger: Logger(label: "fixture")))
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
          while !center.isFiring { try await Task.sleep(for: .milliseconds(5)) }
          ServiceNotifier().ready(status: "firing for \(app)")
        }
        tasks.addTask {
          for await event in events {
            switch event.kind {
            case .activated(let key):
              report(
                "event: activated \(event.notification.id) \(key)"
                  + (event.userText.map { " text=\($0)" } ?? ""))
            case .dismissed(let reason): report("event: dismissed \(event.notification.id) \(reason ?? "-")")
            case .delivered: report("event: delivered \(event.notification.id) -")
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
