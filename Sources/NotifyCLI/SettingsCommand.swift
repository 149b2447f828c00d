import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify settings`: shows or changes what the user lets an app do.
struct SettingsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "settings", _superCommandName: "notify",
    abstract: "Show or change what an app may do: alerts, sounds, badges, breaking through quiet hours.",
    discussion: """
      Without switches it shows the settings in force. Each switch given is set for the app \
      (or, with --default, for every app you have not set), and the result is shown. A switch \
      you never set follows the default policy, which allows alerts, sounds and badges; a kind \
      the app did not ask for (requestAuthorization) stays off.
      Examples:
        notify settings --app chat --sounds off
        notify settings --default --badges off
        notify settings --all-apps
        notify settings --app chat --wake off
        notify settings --wake-lead 2m
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .customLong("all-apps"), help: "Show every app the store knows.")
  var allApps = false

  @Flag(name: .customLong("default"), help: "Show or change the policy for apps you have not set.")
  var defaultPolicy = false

  @Option(help: "Bubbles (and stdout lines): on or off.")
  var alerts: Switch?

  @Option(help: "Sounds: on or off.")
  var sounds: Switch?

  @Option(help: "The launcher badge: on or off (the count is still kept).")
  var badges: Switch?

  @Option(name: .customLong("break-quiet"), help: "Shown during quiet hours instead of held: on or off.")
  var breakQuiet: Switch?

  @Option(
    name: .customLong("time-sensitive"),
    help: "Time-sensitive notifications shown during quiet hours: on (the default) or off.")
  var timeSensitive: Switch?

  @Option(
    name: .customLong("wake"),
    help: "Its notifications scheduled with --wake wake the machine from suspend: on (the default) or off.")
  var wake: Switch?

  @Option(
    name: .customLong("wake-lead"), parsing: .unconditional,
    help: ArgumentHelp(
      "How long before a waking notification the machine is woken, for every app: 0s to 10m (default 1m).",
      valueName: "duration"))
  var wakeLead: String?

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  var change: SettingsChange {
    SettingsChange(
      alerts: alerts?.isOn, sounds: sounds?.isOn, badges: badges?.isOn, breaksQuietHours: breakQuiet?.isOn,
      timeSensitive: timeSensitive?.isOn, wake: wake?.isOn)
  }

  func validate() throws {
    if allApps && defaultPolicy {
      throw ValidationError("--all-apps and --default do not go together: give one")
    }
    if (allApps || defaultPolicy) && appOption.app != nil {
      throw ValidationError("--app and --\(allApps ? "all-apps" : "default") do not go together: give one")
    }
    if allApps && (!change.isEmpty || wakeLead != nil) {
      throw ValidationError(
        "--all-apps only shows: change one app with --app, or the policy for apps you have not set with --default"
      )
    }
  }

  func run() throws {
    // Checked before the store is opened: a bad lead leaves it untouched.
    let lead = try wakeLead.map { text throws(NotifyError) -> TimeInterval in
      // No lead at all is a lead too (wake at the instant itself): `0`, `0s`, `0m`.
      let zero = text.range(of: "^0+[smhdw]?$", options: .regularExpression) != nil
      let value = zero ? 0 : try DurationArgument.parse(text, option: "--wake-lead")
      try Validator.wakeLead(value)
      return value
    }
    let store = try store.open()
    if let lead { try store.setWakeLead(lead) }
    if defaultPolicy {
      try store.change(change, app: nil)
      let policy = try store.defaultSettings()
      if json {
        var record = JSONRecord(capacity: 3)
        record.set("alerts", policy.alerts)
        record.set("sounds", policy.sounds)
        record.set("badges", policy.badges)
        record.set("breaksQuietHours", policy.breaksQuietHours)
        record.set("timeSensitive", policy.timeSensitive)
        record.set("wake", policy.wake)
        record.set("wakeLead", Int(try store.wakeLead().rounded()))
        Output.line(record.compactText)
      } else {
        Output.line(
          "default for apps you have not set: " + SettingsText.describe(AppSettings(app: "*"), policy))
        Output.line("wake lead (every app): \(TimeText.seconds(try store.wakeLead()))")
      }
      return
    }
    let settings: [AppSettings]
    if allApps {
      settings = try store.allAppSettings()
    } else {
      let app = try appOption.resolve()
      try store.change(change, app: app)
      settings = [try store.appSettings(app: app)]
    }
    let policy = try store.defaultSettings()
    if json {
      let records = settings.map { $0.jsonRecord(under: policy) }
      Output.line(allApps ? Output.jsonArray(records) : records[0].compactText)
      return
    }
    for app in settings {
      Output.line("\(Output.safe(app.app)): " + SettingsText.describe(app, policy))
    }
  }
}

/// `on` or `off`.
enum Switch: String, ExpressibleByArgument, CaseIterable {
  case on, off
  var isOn: Bool { self == .on }
}

/// Settings as `notify settings` prints them:
/// `alerts on, sounds off (set), badges off (not asked for), quiet hours: held`.
enum SettingsText {
  static func describe(_ app: AppSettings, _ policy: NotificationSettings) -> String {
    let inForce = app.effective(under: policy)
    let asked = app.requested ?? .all
    func kind(_ name: String, _ on: Bool, _ set: Bool?, _ option: PresentationOptions) -> String {
      let why = !asked.contains(option) ? " (not asked for)" : set != nil ? " (set)" : ""
      return "\(name) \(on ? "on" : "off")\(why)"
    }
    let parts = [
      kind("alerts", inForce.alerts, app.alerts, .banner), kind("sounds", inForce.sounds, app.sounds, .sound),
      kind("badges", inForce.badges, app.badges, .badge),
    ]
    let quiet =
      "quiet hours: \(inForce.breaksQuietHours ? "breaks through" : "held")\(app.breaksQuietHours != nil ? " (set)" : "")"
    // (named only when off: on is the default, as on iOS)
    let timeSensitive =
      inForce.timeSensitive ? [] : ["time-sensitive off\(app.timeSensitive != nil ? " (set)" : "")"]
    // (named only when off: on is the default)
    let wake = inForce.wake ? [] : ["wake off\(app.wake != nil ? " (set)" : "")"]
    return (parts + [quiet] + timeSensitive + wake).joined(separator: ", ")
  }
}
