import ArgumentParser
import Foundation
import Notify

/// `notify status`: what a user asks when a notification did not appear.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "notify",
    abstract:
      "Why a notification may not have appeared: daemon, notification server, the app's settings, what is pending."
  )

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func run() throws {
    let app = try appOption.resolve()
    let store = try store.open()
    let daemon = try store.presences(app: AppPresence.everyApp).first
    let server = DesktopSink.serverInformation()
    let settings = try store.appSettings(app: app)
    let policy = try store.defaultSettings()
    let pending = try store.pending(app: app)
    let next = pending.first { $0.nextFireDate != nil }
    let now = SystemClock().now()
    let zone = SystemClock().localZone
    let quiet = try store.quietHours()
    let isQuiet = quiet.isQuiet(at: now, in: zone)
    let quietEnd = isQuiet ? quiet.nextChange(after: now, in: zone) : nil
    let held = try store.heldCount(app: app)
    if json {
      var r = JSONRecord(capacity: 6)
      r.set(
        "daemon",
        daemon.map { .object(["running": .bool(true), "pid": .int(Int64($0.owner.pid))]) }
          ?? .object(["running": .bool(false)]))
      r.set("server", server.map(Self.record) ?? .null)
      r.set("app", app)
      r.set(
        "settings",
        .object(
          Dictionary(
            uniqueKeysWithValues: settings.jsonRecord(under: policy).members.map { ($0.key, $0.value) })))
      r.set("quiet", isQuiet)
      r.set("quietUntil", quietEnd.map { RFC3339.string(from: $0) })
      r.set("held", held)
      r.set("pending", pending.count)
      r.set(
        "next",
        next.map { stored in
          .object([
            "id": .string(stored.notification.id), "at": .string(RFC3339.string(from: stored.nextFireDate!)),
          ])
        } ?? .null)
      Output.line(r.compactText)
      return
    }
    Output.line(
      daemon.map { "daemon: running (pid \($0.owner.pid))" }
        ?? "daemon: not running: scheduled notifications wait for an app firing its own or `notify fire-due`; start it with systemctl --user enable --now notify.service"
    )
    if let server {
      Output.line(
        "notification server: \(Output.safe(server.name)) \(Output.safe(server.version)) by \(Output.safe(server.vendor)) (spec \(Output.safe(server.specVersion))): \(server.capabilities.map { Output.safe($0) }.joined(separator: ", "))"
      )
    } else {
      Output.line(
        "notification server: none answers on the session bus: --sink auto prints to stdout, --sink desktop exits 69"
      )
    }
    if isQuiet {
      let until =
        quietEnd.map { "until \(Output.localTime($0, zone: zone))" } ?? "until turned off (notify quiet off)"
      Output.line("quiet hours: on \(until); \(held) of this app's held, shown when quiet ends")
    } else {
      Output.line("quiet hours: off" + (held > 0 ? "; \(held) of this app's still held" : ""))
    }
    Output.line("app \(Output.safe(app)): " + SettingsText.describe(settings, policy))
    var line = "pending: \(pending.count)"
    if let next, let at = next.nextFireDate {
      line += "; next: \(Output.safe(next.notification.id)) at \(Output.localTime(at, zone: zone))"
    }
    Output.line(line)
  }

  static func record(_ server: NotificationServerInformation) -> JSONValue {
    .object([
      "name": .string(server.name), "vendor": .string(server.vendor), "version": .string(server.version),
      "specVersion": .string(server.specVersion),
      "capabilities": .array(server.capabilities.map { .string($0) }),
    ])
  }
}
