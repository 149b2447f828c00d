import CSystemd
import Glibc
import Logging
import NotifyCore

/// Delivers notifications through the Notification portal
/// (`org.freedesktop.portal.Notification` on `/org/freedesktop/portal/desktop`), the way a
/// Flatpak app shows one when it cannot reach notify's service: `AddNotification` with the
/// keys the portal's `version` takes (`PortalRequest`), `RemoveNotification` to withdraw,
/// and the portal's `ActionInvoked` turned into a `DesktopEvent` (the bubble's click
/// `default`, a button's key). The portal tells actions to the connection of the app that
/// added the notification only while it is on the bus: it shows what is due while the app
/// runs, and has no signal for a bubble closed.
///
/// Not thread-safe: use it from one thread, the one that runs its sd-event loop (the
/// firing loop's, as the desktop sink).
public final class PortalSink: DeliverySink {
  static let busName = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Notification"
  /// What the store keeps as the server of a bubble the portal shows
  /// (`ServerBubbleID.server`): withdrawing it goes to the portal, never to a server's id.
  public static let serverInstance = "org.freedesktop.portal.Notification"

  /// `portal`.
  public let name = "portal"
  /// The portal's `version` property, read when the sink was made (1 on
  /// xdg-desktop-portal 1.16).
  public let version: UInt32
  /// Called for every action the portal reports on a notification this sink showed.
  public var onEvent: ((DesktopEvent) -> Void)?

  let configuration: DesktopSink.Configuration
  var logger = Logger(label: "notify.portal")
  var connection: BusConnection
  /// The deliveries shown, by portal id, for the actions that come back.
  var shown: [String: Delivery] = [:]
  var attachedEvent: OpaquePointer?

  /// Connects to the session bus and reads the portal's `version`. Throws
  /// `NotifyError.unavailable` when there is no bus or no Notification portal answers.
  public init(configuration: DesktopSink.Configuration = .init()) throws(NotifyError) {
    self.configuration = configuration
    do throws(BusFailure) {
      connection = try BusConnection(
        address: configuration.busAddress, description: configuration.connectionName)
      version = try Self.readVersion(on: connection, timeout: configuration.callTimeout)
      try installMatch(on: connection)
    } catch {
      throw NotifyError(
        .noServer, "the Notification portal does not answer on the session bus (\(error))",
        fix: "run the app where xdg-desktop-portal runs, or let it talk to io.github.notify.Scheduler1")
    }
  }

  deinit {
    if let attachedEvent {
      _ = sd_bus_detach_event(connection.handle)
      sd_event_unref(attachedEvent)
    }
  }

  /// The `version` property of the portal's Notification interface.
  static func readVersion(on connection: BusConnection, timeout: Duration) throws(BusFailure) -> UInt32 {
    let message = try connection.methodCall(
      destination: busName, path: objectPath, interface: "org.freedesktop.DBus.Properties", member: "Get")
    try message.append(interface)
    try message.append("version")
    let reply = try connection.call(message, timeout: timeout, operation: "reading the portal's version")
    let values: [BusValue]
    do {
      values = try reply.readValues(
        limits: .init(stringBytes: 1024, arrayCount: 16, totalValues: 16, depth: 4))
    } catch {
      throw BusFailure(operation: "reading the portal's version (\(error))", code: EBADMSG)
    }
    guard case .variant(.uint32(let version))? = values.first else {
      throw BusFailure(operation: "reading the portal's version (not a 'u')", code: EBADMSG)
    }
    return version
  }

  /// Shows `delivery` (when it has a title, subtitle or body). The receipt names the
  /// portal as the bubble's server, so that withdrawing it comes back here.
  @discardableResult
  public func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    guard NotifyRequest.hasAlert(delivery.notification) else { return DeliveryReceipt() }
    let request = PortalRequest(delivery: delivery, version: version)
    try call("AddNotification", operation: "calling AddNotification") { message throws(BusFailure) in
      try message.append(request.id)
      try message.append(.vardict(request.entries))
    }
    shown[request.id] = delivery
    return DeliveryReceipt(bubble: ServerBubbleID(0, server: Self.serverInstance))
  }

  /// Takes the notification `id` off the screen (`RemoveNotification`); the portal ignores
  /// an id it does not show.
  public func withdraw(id: String) throws(NotifyError) {
    try call("RemoveNotification", operation: "calling RemoveNotification") { message throws(BusFailure) in
      try message.append(id)
    }
    shown[id] = nil
  }

  /// One call to the portal, on a fresh connection when the last one failed.
  private func call(
    _ member: String, operation: String, arguments: (BusMessage) throws(BusFailure) -> Void
  ) throws(NotifyError) {
    do throws(BusFailure) {
      if !connection.isOpen { try reconnect() }
      let message = try connection.methodCall(
        destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: member)
      try arguments(message)
      _ = try connection.call(message, timeout: configuration.callTimeout, operation: operation)
    } catch {
      throw NotifyError(
        error.isTimeout ? .serverTimedOut(mayHaveShownIt: false) : .noServer,
        "the Notification portal did not take the call (\(error))",
        fix: "check that xdg-desktop-portal runs in the session; the notification can be retried")
    }
  }

  /// Opens a new connection with the signal match, attached to the loop when there is one.
  /// The portal tells actions to the connection that added a notification: those shown
  /// through the old one are forgotten.
  private func reconnect() throws(BusFailure) {
    let fresh = try BusConnection(
      address: configuration.busAddress, description: configuration.connectionName)
    try installMatch(on: fresh)
    if let attachedEvent {
      _ = sd_bus_detach_event(connection.handle)
      try BusFailure.check(sd_bus_attach_event(fresh.handle, attachedEvent, 0), "attaching to sd-event")
    }
    connection = fresh
    shown = [:]
  }

  // MARK: Loop

  /// Dispatches the portal's signals whenever `event`'s loop runs.
  public func attach(to event: OpaquePointer, priority: Int32) throws {
    detach()
    attachedEvent = sd_event_ref(event)
    do throws(BusFailure) {
      try BusFailure.check(sd_bus_attach_event(connection.handle, event, priority), "attaching to sd-event")
    } catch {
      throw NotifyError(
        .unavailable, "cannot watch the session bus from the event loop (\(error))",
        fix: "report this as a bug")
    }
  }

  /// Stops dispatching from the loop given to `attach(to:priority:)`.
  public func detach() {
    guard let attachedEvent else { return }
    _ = sd_bus_detach_event(connection.handle)
    sd_event_unref(attachedEvent)
    self.attachedEvent = nil
  }

  /// Handles every message waiting on the connection, for callers without sd-event.
  @discardableResult
  public func processPending() -> Int {
    var steps = 0
    while sd_bus_process(connection.handle, nil) > 0 { steps += 1 }
    return steps
  }

  // MARK: Signals

  /// Subscribes to the portal's `ActionInvoked`.
  private func installMatch(on connection: BusConnection) throws(BusFailure) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    try BusFailure.check(
      sd_bus_match_signal(
        connection.handle, nil, Self.busName, Self.objectPath, Self.interface, "ActionInvoked",
        { message, userdata, _ in
          guard let message, let userdata else { return 0 }
          let sink = Unmanaged<PortalSink>.fromOpaque(userdata).takeUnretainedValue()
          sink.handleActionInvoked(BusMessage(borrowing: message))
          return 0
        }, me),
      "subscribing to the portal's ActionInvoked")
  }

  /// `ActionInvoked(s id, s action, av parameter)`: a click (`default`) or a button.
  func handleActionInvoked(_ message: BusMessage) {
    let values: [BusValue]
    do {
      values = try message.readValues(
        limits: .init(stringBytes: 65_536, arrayCount: 64, totalValues: 256, depth: 8))
    } catch {
      logger.debug("ignored a malformed ActionInvoked: \(error)")
      return
    }
    guard values.count >= 2, case .string(let id) = values[0], case .string(let action) = values[1],
      let delivery = shown[id]
    else { return }
    let notification = delivery.notification
    let parameters: [BusValue] = values.count > 2 ? PortalRequest.parameters(values[2]) : []
    let textInput = notification.actions.first { $0.key == action && $0.isTextInput }
    onEvent?(
      DesktopEvent(
        kind: .activated(actionKey: action), app: notification.app, id: id, occurrence: delivery.occurrence,
        userInfo: notification.userInfo, launchImage: notification.launchImage, serverID: 0,
        notification: notification, activationToken: PortalRequest.activationToken(parameters),
        userText: textInput == nil || version < 2 ? nil : PortalRequest.replyText(parameters)))
  }
}
