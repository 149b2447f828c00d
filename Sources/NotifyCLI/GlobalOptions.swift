import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Options every command takes: the store and the app.
struct StoreOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The store file (env NOTIFY_DB).", valueName: "path"))
  var db: String?

  /// The store path: `--db`, else `NOTIFY_DB`, else the XDG default.
  var path: String {
    db ?? ProcessInfo.processInfo.environment["NOTIFY_DB"].flatMap { $0.isEmpty ? nil : $0 }
      ?? SQLiteStore.defaultPath()
  }

  /// Opens the store.
  func open() throws(NotifyError) -> SQLiteStore {
    // The environment is decoded with bad bytes replaced by U+FFFD, which names another file.
    if db == nil, let raw = getenv("NOTIFY_DB"), String(validatingCString: raw) == nil {
      throw NotifyError(
        .invalidData, "NOTIFY_DB is not valid UTF-8 text",
        fix: "set NOTIFY_DB to a path encoded as UTF-8, or pass --db PATH")
    }
    return try SQLiteStore(path: path, busyTimeout: try Self.busyTimeout())
  }

  /// How long to wait for other processes before exit 75: `NOTIFY_BUSY_TIMEOUT` seconds
  /// (a decimal from 0.1 to 3600), else the store's default of 5.
  static func busyTimeout(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(NotifyError) -> TimeInterval {
    guard let text = environment["NOTIFY_BUSY_TIMEOUT"], !text.isEmpty else {
      return SQLiteStore.defaultBusyTimeout
    }
    guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
      throw NotifyError(
        .usage, "NOTIFY_BUSY_TIMEOUT is \(Escaper.visible(text)), not a number of seconds from 0.1 to 3600",
        fix: "set it to seconds such as 5 or 0.5, or unset it for the default of 5")
    }
    return seconds
  }

  /// The app's center on the store: the command goes through the library's API, as an app
  /// does. Its sink (stdout) is only for commands that deliver nothing themselves.
  func center(app: String, clock: any NotifyClock = SystemClock()) throws(NotifyError)
    -> LocalNotificationCenter
  {
    try LocalNotificationCenter(app: app, store: try open(), sink: StdoutSink(), clock: clock)
  }
}

/// The app a command acts for.
struct AppOption: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The app (env NOTIFY_APP, default notify).", valueName: "id"))
  var app: String?

  /// `--app`, else `NOTIFY_APP`, else `notify`; validated.
  func resolve() throws(NotifyError) -> String {
    let value =
      app ?? ProcessInfo.processInfo.environment["NOTIFY_APP"].flatMap { $0.isEmpty ? nil : $0 } ?? "notify"
    try Validator.app(value)
    return value
  }
}
