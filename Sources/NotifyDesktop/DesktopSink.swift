import CSystemd
import Logging
import NotifyCore

/// Delivers notifications to the desktop's notification server
/// (`org.freedesktop.Notifications`) over one reused session-bus connection, and turns the
/// server's `ActionInvoked` / `NotificationClosed` signals into `DesktopEvent`s.
///
/// The sink reads the server's capabilities once per connection and uses them: the body is
/// markup-escaped only when the server parses markup, and sound hints are sent only when
/// the server plays sounds (`supportsSound`; otherwise the caller plays the sound). A call
/// that fails because the bus or the server went away is retried once on a fresh
/// connection; a call that times out is not, so one delivery blocks at most one
/// `Configuration.callTimeout`.
///
/// Not thread-safe: use it from one thread, the one that runs its sd-event loop or calls
/// `processPending()`.
///
/// ```swift
/// let sink = try DesktopSink()
/// sink.onEvent = { event in print(event.kind, event.id) }
/// try sink.attach(to: event)  // or call sink.processPending() when sink.fileDescriptor is readable
/// try sink.deliver(delivery)
/// ```
public final class DesktopSink: DeliverySink {
  static let busName = "org.freedesktop.Notifications"
  static let objectPath = "/org/freedesktop/Notifications"
  static let interface = "org.freedesktop.Notifications"

  /// `desktop`.
  public let name = "desktop"
  /// How this sink talks to the bus.
  public let configuration: Configuration
  /// Called for every activation or dismissal of a notification this sink showed.
  public var onEvent: ((DesktopEvent) -> Void)?
  /// Called when bubbles went away without a delivery to record it with (the server closed
  /// them, or it left the bus and its ids mean nothing to the next one), so that a store
  /// forgets their ids. A bubble's id is not told here when it is given: it comes back in
  /// the delivery's receipt (`DeliveryReceipt.bubble`).
  public var onServerIDsForgotten: (([DesktopNotificationKey]) -> Void)?
  /// True when a store keeps the notifications' server ids (`DeliveryReceipt.bubble`,
  /// recorded with the delivery) and gives them back with each delivery
  /// (`Delivery.replacing`): `replaces_id` then comes from the delivery alone, so that a
  /// bubble another process showed is replaced, and only on the server that showed it.
  /// False (the default): the sink uses the ids it saw itself.
  public var storeKeepsServerIDs = false
  /// True while a notification server owns `org.freedesktop.Notifications`, as far as this
  /// sink knows: its answers, its failures (`ServiceUnknown`) and `NameOwnerChanged`.
  public internal(set) var serverPresent = false
  /// When `startServerIfActivatable()` last tried to start the server.
  var lastActivationAttempt: ContinuousClock.Instant?
  /// Called when `serverPresent` changes, with the new owner's unique name when one came.
  /// On the thread that dispatches the sink's bus messages (its loop) or delivers.
  public var onServerPresenceChange: ((Bool, String?) -> Void)?
  /// The server's capabilities (`GetCapabilities`), read once per connection and again
  /// when another server takes over the name.
  public var capabilities: Set<String> { session.capabilities }

  var logger = Logger(label: "notify.desktop")
  /// The open connection; nil after a failure until the next use reopens it.
  var connection: BusConnection?
  /// Connections dropped while one of their callbacks was running: freed later.
  var retiredConnections: [BusConnection] = []
  /// True while a signal callback runs (dropping the connection then must wait).
  var dispatching = false
  /// The server this sink talks to: who it is, what it can do, what it shows for us.
  var session = ServerSession()
  /// The last badge published per app, published again on a new connection.
  var badges = LauncherBadges()
  /// The sd-event loop the bus is attached to (one reference held).
  var attachedEvent: OpaquePointer?
  var attachedPriority: Int32 = 0

  /// Connects to the session bus and reads the server's capabilities.
  ///
  /// Throws `NotifyError.unavailable` (exit 69) when there is no session bus or, when
  /// `requiresServer`, no notification server answers on it: what `--sink desktop`
  /// reports. Without `requiresServer` a bus is enough (`init(followingServer:)`).
  public init(configuration: Configuration = Configuration(), requiresServer: Bool = true) throws(NotifyError)
  {
    self.configuration = configuration
    do throws(BusFailure) {
      if requiresServer {
        _ = try ready(needsServer: true)
      } else {
        // Following: a server that owns the name now is read; none is not started here
        // (`startServerIfActivatable()` tries, bounded, when there is something to show).
        let connection = try ready(needsServer: false)
        if try nameHasOwner(on: connection) { try readCapabilities(on: connection) }
      }
    } catch {
      guard !requiresServer, error.isNoServer, let connection, connection.isOpen else {
        throw DesktopSink.unavailableError(error)
      }
    }
  }

  deinit {
    connection = nil
    retiredConnections = []
    if let attachedEvent { sd_event_unref(attachedEvent) }
  }

  /// The lowest level this sink logs at (the handler's, `info` by default): an app's
  /// center lowers it to `NotifyLogging.level`.
  public var logLevel: Logger.Level {
    get { logger.logLevel }
    set { logger.logLevel = newValue }
  }

  /// True when the server plays sounds itself (`sound` capability); otherwise the caller
  /// plays the delivery's sound.
  public var supportsSound: Bool { capabilities.contains("sound") }

  /// True when delivering `delivery` makes the server play its sound, so the caller must
  /// not play it too. False for silent deliveries and for ones that show no bubble.
  public func handlesSound(for delivery: Delivery) -> Bool {
    supportsSound && delivery.sound != .none && NotifyRequest.hasAlert(delivery.notification)
  }

  /// Shows `delivery` (when it has a title or body) and publishes its badge (when it has
  /// one). Throws `NotifyError` when the server did not take it; it may be retried. The
  /// receipt names the bubble (its server id and the server instance that gave it) and the
  /// actions a server without `actions` did not show.
  @discardableResult
  public func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    var receipt = DeliveryReceipt()
    if NotifyRequest.hasAlert(delivery.notification) {
      receipt.bubble = try withConnection(needsServer: true) { connection throws(BusFailure) in
        try notify(delivery, on: connection)
      }
      receipt.note = NotifyRequest.actionsNote(delivery.notification, capabilities: capabilities)
    }
    if let badge = delivery.notification.badge {
      do {
        try publishBadge(app: delivery.notification.app, count: badge)
      } catch {
        // The bubble was shown: failing the delivery now would show it twice on retry.
        logger.warning("could not publish the badge of app \(delivery.notification.app): \(error)")
      }
    }
    return receipt
  }

  /// One `Notify` call; remembers the server id for events and `replaces_id`, and returns
  /// the bubble it showed.
  func notify(_ delivery: Delivery, on connection: BusConnection) throws(BusFailure) -> ServerBubbleID {
    let offersDefault = delivery.offersDefaultAction
    let request = NotifyRequest(
      delivery: delivery, capabilities: capabilities, replacesID: replacesID(for: delivery, on: connection),
      offersDefaultAction: offersDefault)
    var (serverID, owner) = try send(request, on: connection)
    noteServerPresent(true, owner: owner)
    if noteServer(owner) {
      // A new server answered (it was restarted since the last call) and the request was
      // formatted for the old one's capabilities: read them and, if that changes the
      // request, replace the bubble just shown with a correct one. It was shown either
      // way, so a failure here must not fail (and repeat) the delivery.
      do throws(BusFailure) {
        try readCapabilities(on: connection)
        let fresh = NotifyRequest(
          delivery: delivery, capabilities: capabilities, replacesID: serverID,
          offersDefaultAction: offersDefault)
        var sent = request
        sent.replacesID = serverID
        if fresh != sent {
          (serverID, owner) = try send(fresh, on: connection)
        }
      } catch {
        logger.warning("could not reformat a notification for the new server: \(error)")
      }
    }
    session.showed(delivery, as: serverID)
    return ServerBubbleID(serverID, server: serverInstance(on: connection))
  }

  /// The id to replace for `delivery`: the store's (`Delivery.replacing`, read with the
  /// claim), when the server instance answering now gave it; else (no store) the one this
  /// sink saw; 0 for a new bubble.
  func replacesID(for delivery: Delivery, on connection: BusConnection) -> UInt32 {
    guard storeKeepsServerIDs else {
      return session.serverIDs[
        DesktopNotificationKey(app: delivery.notification.app, id: delivery.notification.id)]
        ?? 0
    }
    return delivery.replacing?.replacesID(on: serverInstance(on: connection)) ?? 0
  }

  /// The server instance answering on `connection`: the bus's id and the server's unique
  /// name. Ids a server gives mean something only to that instance (unique names are not
  /// reused on a bus; a new login is a new bus).
  func serverInstance(on connection: BusConnection) -> String? {
    guard let owner = session.owner, let bus = connection.busID else { return nil }
    return bus + "/" + owner
  }

  /// The server instance answering now (see `serverInstance(on:)`), nil while unknown.
  public var serverInstance: String? { connection.flatMap(serverInstance(on:)) }

  /// One `Notify` call: the server id it returned and who answered.
  func send(_ request: NotifyRequest, on connection: BusConnection) throws(BusFailure) -> (UInt32, String?) {
    let message = try connection.methodCall(
      destination: DesktopSink.busName, path: DesktopSink.objectPath, interface: DesktopSink.interface,
      member: "Notify")
    try request.write(to: message)
    let reply = try connection.call(
      message, timeout: configuration.callTimeout, operation: Self.notifyOperation)
    return (try reply.readUInt32(), reply.sender)
  }

  /// Notes which connection answered as the server; true when it is another one than
  /// before. That means the server was restarted or replaced: the old ids are not ours any
  /// more and the capabilities may differ.
  @discardableResult
  func noteServer(_ owner: String?) -> Bool {
    let previous = session.owner
    let (changed, forgotten) = session.answered(by: owner)
    if changed { logger.info("the notification server changed (\(previous ?? "none") → \(owner ?? "none"))") }
    report(forgotten)
    return changed
  }

  /// Passes the ids taken back on to whoever keeps them (`onServerIDsForgotten`).
  func report(_ forgotten: [DesktopNotificationKey]) {
    guard !forgotten.isEmpty else { return }
    onServerIDsForgotten?(forgotten)
  }

  // MARK: Connection

  /// Runs `operation` on an open connection; when it fails for any reason but a timeout,
  /// reopens the connection (re-reading capabilities) and runs it once more.
  @discardableResult
  func withConnection<T>(
    needsServer: Bool, _ operation: (BusConnection) throws(BusFailure) -> T
  ) throws(NotifyError) -> T {
    do throws(BusFailure) {
      return try operation(try ready(needsServer: needsServer))
    } catch let failure {
      if failure.isTimeout { throw timeoutError(failure) }
      logger.info("retrying on a new connection after: \(failure)")
    }
    dropConnection()
    do throws(BusFailure) {
      return try operation(try ready(needsServer: needsServer))
    } catch let failure {
      if failure.isTimeout { throw timeoutError(failure) }
      noteCallFailure(failure)
      throw DesktopSink.unavailableError(failure)
    }
  }

  /// The open connection, opened (with signal matches, sd-event attachment and badges)
  /// when there is none, and with fresh capabilities when `needsServer`.
  func ready(needsServer: Bool) throws(BusFailure) -> BusConnection {
    if !dispatching { retiredConnections.removeAll() }
    let current: BusConnection
    if let connection, connection.isOpen {
      current = connection
    } else {
      dropConnection()
      current = try BusConnection(
        address: configuration.busAddress, description: configuration.connectionName)
      try installMatches(on: current)
      if let attachedEvent {
        try BusFailure.check(
          sd_bus_attach_event(current.handle, attachedEvent, attachedPriority), "attaching to sd-event")
      }
      connection = current
      session.connectionDropped()
      for entry in badges.entries { try? emitBadge(entry, on: current) }
    }
    if needsServer && session.capabilitiesStale {
      try readCapabilities(on: current)
    }
    return current
  }

  /// `GetCapabilities`, which also tells who the server is.
  func readCapabilities(on connection: BusConnection) throws(BusFailure) {
    let message = try connection.methodCall(
      destination: DesktopSink.busName, path: DesktopSink.objectPath, interface: DesktopSink.interface,
      member: "GetCapabilities")
    let reply = try connection.call(
      message, timeout: configuration.callTimeout, operation: "calling GetCapabilities")
    session.read(capabilities: Set(try reply.readStringArray()))
    noteServer(reply.sender)
    noteServerPresent(true, owner: reply.sender)
  }

  /// Closes the connection. Notifications shown through it can no longer send us signals
  /// (the server sends them to the connection that asked), so they are forgotten.
  func dropConnection() {
    guard let old = connection else { return }
    connection = nil
    session.connectionDropped()
    if dispatching { retiredConnections.append(old) }
  }

  // MARK: Errors

  /// The error for a sink that cannot reach a server (exit 69).
  static func unavailableError(_ failure: BusFailure) -> NotifyError {
    if failure.operation == "connecting to the session bus" {
      return NotifyError(
        .noServer, "cannot connect to the session bus (\(failure))",
        fix:
          "run notify inside your desktop session (DBUS_SESSION_BUS_ADDRESS set), or use \(term: .stdoutSink)"
      )
    }
    if failure.isNoServer || failure.isTimeout || failure.operation == "calling GetCapabilities" {
      return NotifyError(
        .noServer, "no notification server answers on the session bus",
        fix: "start a notification daemon (e.g. dunst) in your desktop session, or use \(term: .stdoutSink)")
    }
    return NotifyError(
      .noServer, "the notification server did not take the notification (\(failure))",
      fix: "check the notification daemon's log, or use \(term: .stdoutSink)")
  }

  /// What a failed `Notify` call says it was doing.
  static let notifyOperation = "calling Notify"

  /// The error for a server that did not answer in time (exit 75: try again later). A
  /// `Notify` that timed out reached the server, which may still perform it (a slow server
  /// shows every call it received): it is marked so that nobody sends it again.
  func timeoutError(_ failure: BusFailure) -> NotifyError {
    guard failure.operation == Self.notifyOperation else {
      return NotifyError(
        .serverTimedOut(mayHaveShownIt: false),
        "the notification server did not answer within \(configuration.callTimeout)",
        fix: "check that the notification daemon is responsive; the notification can be retried")
    }
    return NotifyError(
      .serverTimedOut(mayHaveShownIt: true),
      "the notification server did not answer Notify within \(configuration.callTimeout): it may still show it",
      fix: "check that the notification daemon is responsive; it is not sent again, which could show it twice"
    )
  }
}
