/// Which connections hear which apps' signals: a connection subscribes to an app it may
/// act for, and is forgotten when it leaves the bus. Bounded, so that a client that
/// subscribes forever cannot grow the daemon.
struct Subscriptions {
  private(set) var appsByConnection: [String: Set<String>] = [:]
  /// The most apps one connection hears.
  static let appsPerConnection = 64
  /// The most connections subscribed at once.
  static let connections = 4096

  /// `connection` hears `app` from now on.
  mutating func add(_ connection: String, app: String) throws(SchedulerError) {
    var apps = appsByConnection[connection] ?? []
    if apps.contains(app) { return }
    guard apps.count < Self.appsPerConnection else {
      throw .invalidArgs(
        "this connection hears \(Self.appsPerConnection) apps already: unsubscribe one first")
    }
    guard appsByConnection[connection] != nil || appsByConnection.count < Self.connections else {
      throw .failed("\(Self.connections) connections are subscribed already: try again later")
    }
    apps.insert(app)
    appsByConnection[connection] = apps
  }

  /// `connection` no longer hears `app`.
  mutating func remove(_ connection: String, app: String) {
    appsByConnection[connection]?.remove(app)
    if appsByConnection[connection]?.isEmpty == true { appsByConnection[connection] = nil }
  }

  /// `connection` left the bus.
  mutating func drop(_ connection: String) {
    appsByConnection[connection] = nil
  }

  /// The connections that hear `app`, in a stable order.
  func connections(hearing app: String) -> [String] {
    appsByConnection.filter { $0.value.contains(app) }.map(\.key).sorted()
  }

  /// Every app someone hears.
  var apps: Set<String> { appsByConnection.values.reduce(into: []) { $0.formUnion($1) } }
}
