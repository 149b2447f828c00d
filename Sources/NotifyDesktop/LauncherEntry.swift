/// The Unity LauncherEntry badge signal for one app (`com.canonical.Unity.LauncherEntry.Update`).
/// Pure: the bus part lives in `DesktopSink.publishBadge(app:count:)`.
struct LauncherEntry: Hashable, Sendable {
  /// The D-Bus interface of the signal.
  static let interface = "com.canonical.Unity.LauncherEntry"

  /// The app whose launcher shows the badge.
  var app: String
  /// The badge number; 0 hides it.
  var count: Int

  /// `application://APP.desktop`, the URI docks match against their launchers.
  var appURI: String { "application://\(app).desktop" }

  /// `/com/canonical/unity/launcherentry/<hash>`, the path libunity uses: glib's
  /// `g_str_hash` (djb2 over signed chars) of the app URI, so each app has its own object.
  var objectPath: String {
    var hash: UInt32 = 5381
    for byte in appURI.utf8 {
      let signed = UInt32(bitPattern: Int32(Int8(bitPattern: byte)))
      hash = (hash &<< 5) &+ hash &+ signed
    }
    return "/com/canonical/unity/launcherentry/\(hash)"
  }

  /// The `a{sv}` properties: `count` (int64) and `count-visible` (false when 0).
  var properties: [(key: String, value: BusVariant)] {
    [("count", .int64(Int64(count))), ("count-visible", .bool(count > 0))]
  }

  /// Writes the `sa{sv}` arguments into `message`.
  func write(to message: BusMessage) throws(BusFailure) {
    try message.append(appURI)
    try message.container("a", "{sv}") { () throws(BusFailure) in
      for property in properties {
        try message.appendEntry(property.key, property.value)
      }
    }
  }
}
