/// The names of the scheduler's D-Bus interface, version 1 (docs/dbus.md): the
/// version is in the bus name, the interface and the object path, so that a version 2 can
/// be served beside it (the D-Bus API design guide). Shared by the service (`notify
/// daemon`) and the library's client (`SchedulerClient`), so the two never disagree on a
/// name or a key.
package enum SchedulerInterface {
  /// The well-known bus name, the interface name and the error prefix.
  package static let name = "io.github.notify.Scheduler1"
  /// The object path.
  package static let path = "/io/github/notify/Scheduler1"
  /// The interface's `Version` property, raised by each compatible addition: 2 added
  /// `SetCategories`, `GetCategories` and the `category` request key; 3 added
  /// `ListDelivered`, `ListHistory`, `ListHeld`, `TakeResponses` and `RequestAuthorization`;
  /// 4 added the `wake` and `expireLate` request keys of `Schedule` (docs/sleep-wake-power.md),
  /// and the errors `SoundRejected`, `StoreUnavailable`, `ServerUnavailable` and
  /// `ServerTimedOut`, sent to a connection that said it knows them (`SetClientVersion`;
  /// docs/dbus.md, "Errors").
  package static let version: UInt32 = 4
  /// The prefix of every error the service replies with (`...Error.LimitReached`).
  package static let errorPrefix = name + ".Error."

  /// The errors the interface declares (its introspection data's `Errors` annotation; a
  /// test keeps the two equal), each `errorPrefix` and the raw value. The daemon's own
  /// failures are `org.freedesktop.DBus.Error.Failed`.
  package enum ErrorName: String, CaseIterable, Sendable {
    case limitReached = "LimitReached"
    case invalidTrigger = "InvalidTrigger"
    case unknownID = "UnknownId"
    case notAllowed = "NotAllowed"
    case storeBusy = "StoreBusy"
    case invalidArgs = "InvalidArgs"
    case soundRejected = "SoundRejected"
    case storeUnavailable = "StoreUnavailable"
    case serverUnavailable = "ServerUnavailable"
    case serverTimedOut = "ServerTimedOut"
  }

  /// The keys of a request's `a{sv}` (docs/dbus.md, "Request keys"): what the service's decoder
  /// takes and the client sends, nothing else.
  package enum Keys {
    /// The keys of the content (`Schedule` and `Present`).
    package static let content: Set<String> = [
      "id", "title", "body", "action", "launchImage", "sound", "badge", "userInfo", "urgency", "actions",
      "subtitle", "interruptionLevel", "threadIdentifier", "threadSummary", "bodyMarkup", "attachments",
      "category", "realertEvery", "realertTimes", "soundFile",
    ]
    /// The keys of the trigger (`Schedule` only).
    package static let trigger: Set<String> = [
      "at", "in", "timeZone", "repeat", "repeatCount", "until", "rrule", "every", "on", "except", "wake",
      "expireLate",
    ]
    /// The keys of one category of `SetCategories`.
    package static let category: Set<String> = ["identifier", "actions"]
    /// The keys of one action in `actions`.
    package static let action: Set<String> = [
      "kind", "key", "title", "opensApp", "destructive", "placeholder", "buttonTitle", "seconds",
    ]
  }
}
