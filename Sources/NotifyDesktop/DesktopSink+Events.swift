import CSystemd
import Glibc
import NotifyCore

extension DesktopSink {
  /// Dispatches signals whenever `event`'s loop runs (`sd_bus_attach_event`), on this and
  /// every later connection. Events then arrive through `onEvent` from inside the loop.
  public func attach(to event: OpaquePointer, priority: Int32 = 0) throws {
    detach()
    attachedEvent = sd_event_ref(event)
    attachedPriority = priority
    if let connection {
      do throws(BusFailure) {
        try BusFailure.check(
          sd_bus_attach_event(connection.handle, event, priority), "attaching to sd-event")
      } catch {
        throw NotifyError(
          .unavailable, "cannot watch the session bus from the event loop (\(error))",
          fix: "report this as a bug")
      }
    }
  }

  /// Stops dispatching from the sd-event loop given to `attach(to:priority:)`.
  public func detach() {
    if let connection { _ = sd_bus_detach_event(connection.handle) }
    if let attachedEvent { sd_event_unref(attachedEvent) }
    attachedEvent = nil
  }

  /// Handles every message waiting on the connection (`sd_bus_process` until it returns 0),
  /// calling `onEvent` for each activation or dismissal, and returns how many steps ran.
  /// For callers without sd-event: call it when `fileDescriptor` is readable, after `wait`,
  /// and after `deliver` (a call may have read signals that no longer make the fd readable).
  @discardableResult
  public func processPending() -> Int {
    guard let connection else { return 0 }
    var steps = 0
    while true {
      let result = sd_bus_process(connection.handle, nil)
      // -EBUSY: called from inside one of this sink's callbacks; the outer call goes on.
      if result == -EBUSY { break }
      if result < 0 {
        logger.info("the session bus connection failed: \(String(cString: strerror(-result)))")
        dropConnection()
        break
      }
      if result == 0 { break }
      steps += 1
    }
    return steps
  }

  /// Waits until a message can be processed or `timeout` passes (`sd_bus_wait`); true when
  /// there is something for `processPending()`.
  public func wait(timeout: Duration) -> Bool {
    guard let connection else { return false }
    return sd_bus_wait(connection.handle, timeout.microseconds) > 0
  }

  /// The connection's file descriptor for poll-based callers, nil while disconnected. It
  /// changes after a reconnect: read it again after each `deliver`.
  public var fileDescriptor: Int32? {
    guard let connection else { return nil }
    let fd = sd_bus_get_fd(connection.handle)
    return fd >= 0 ? fd : nil
  }

  /// The poll events to wait for on `fileDescriptor` (`sd_bus_get_events`).
  public var pollEvents: Int16 {
    guard let connection else { return 0 }
    return Int16(truncatingIfNeeded: max(0, sd_bus_get_events(connection.handle)))
  }

  // MARK: Signals

  /// Subscribes to the server's signals and to changes of the server's owner.
  func installMatches(on connection: BusConnection) throws(BusFailure) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    try BusFailure.check(
      sd_bus_match_signal(
        connection.handle, nil, nil, DesktopSink.objectPath, DesktopSink.interface, "ActionInvoked",
        { message, userdata, _ in DesktopSink.dispatch(message, userdata) { try $0.handleActionInvoked($1) }
        },
        me),
      "subscribing to ActionInvoked")
    try BusFailure.check(
      sd_bus_match_signal(
        connection.handle, nil, nil, DesktopSink.objectPath, DesktopSink.interface, "NotificationClosed",
        { message, userdata, _ in
          DesktopSink.dispatch(message, userdata) { try $0.handleNotificationClosed($1) }
        }, me),
      "subscribing to NotificationClosed")
    try BusFailure.check(
      sd_bus_match_signal(
        connection.handle, nil, nil, DesktopSink.objectPath, DesktopSink.interface, "NotificationReplied",
        { message, userdata, _ in
          DesktopSink.dispatch(message, userdata) { try $0.handleNotificationReplied($1) }
        }, me),
      "subscribing to NotificationReplied")
    try BusFailure.check(
      sd_bus_match_signal(
        connection.handle, nil, nil, DesktopSink.objectPath, DesktopSink.interface, "ActivationToken",
        { message, userdata, _ in
          DesktopSink.dispatch(message, userdata) { try $0.handleActivationToken($1) }
        }, me),
      "subscribing to ActivationToken")
    let ownerRule =
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(DesktopSink.busName)'"
    try BusFailure.check(
      sd_bus_add_match(
        connection.handle, nil, ownerRule,
        { message, userdata, _ in DesktopSink.dispatch(message, userdata) { try $0.handleOwnerChanged($1) } },
        me),
      "subscribing to NameOwnerChanged")
  }

  /// Calls `handler` on the sink behind `userdata` for `message`; sd-bus callbacks land here.
  static func dispatch(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ handler: (DesktopSink, BusMessage) throws -> Void
  ) -> Int32 {
    guard let message, let userdata else { return 0 }
    let sink = Unmanaged<DesktopSink>.fromOpaque(userdata).takeUnretainedValue()
    let wasDispatching = sink.dispatching
    sink.dispatching = true
    defer { sink.dispatching = wasDispatching }
    do {
      try handler(sink, BusMessage(borrowing: message))
    } catch {
      sink.logger.debug("ignored a malformed signal: \(error)")
    }
    // 0: let other matches see the message too.
    return 0
  }

  /// `ActivationToken(u id, s token)`: sent just before `ActionInvoked` for the same id.
  func handleActivationToken(_ message: BusMessage) throws(BusFailure) {
    guard session.isFromServer(message.sender) else { return }
    let serverID = try message.readUInt32()
    let token = try message.readString()
    guard session.delivery(shownAs: serverID) != nil else { return }
    session.noteActivationToken(token, for: serverID)
  }

  /// `ActionInvoked(u id, s action_key)`.
  func handleActionInvoked(_ message: BusMessage) throws(BusFailure) {
    guard session.isFromServer(message.sender) else { return }
    let serverID = try message.readUInt32()
    let actionKey = try message.readString()
    guard let delivery = session.delivery(shownAs: serverID) else { return }
    // KDE's reply field travels under its own key; a server that shows it as a plain
    // button reports that key: the app hears its text-input action, without text.
    let key =
      actionKey == NotifyRequest.inlineReplyKey
      ? delivery.notification.actions.first(where: \.isTextInput)?.key ?? actionKey : actionKey
    emit(
      .activated(actionKey: key), for: delivery, serverID: serverID,
      token: session.takeActivationToken(for: serverID))
  }

  /// `NotificationReplied(u id, s text)`: KDE's inline reply; the text answers the
  /// notification's text-input action.
  func handleNotificationReplied(_ message: BusMessage) throws(BusFailure) {
    guard session.isFromServer(message.sender) else { return }
    let serverID = try message.readUInt32()
    let text = try message.readString()
    guard let delivery = session.delivery(shownAs: serverID),
      let action = delivery.notification.actions.first(where: \.isTextInput)
    else { return }
    emit(
      .activated(actionKey: action.key), for: delivery, serverID: serverID,
      token: session.takeActivationToken(for: serverID), userText: text)
  }

  /// `NotificationClosed(u id, u reason)`. A close by call is not reported: the only
  /// caller is notify withdrawing the notification, which records it itself.
  func handleNotificationClosed(_ message: BusMessage) throws(BusFailure) {
    guard session.isFromServer(message.sender) else { return }
    let serverID = try message.readUInt32()
    let reason = DismissReason(code: try message.readUInt32())
    guard let (delivery, forgotten) = session.closed(serverID) else { return }
    report(forgotten.map { [$0] } ?? [])
    guard reason != .closedByCall else { return }
    emit(.dismissed(reason), for: delivery, serverID: serverID)
  }

  /// `NameOwnerChanged(s name, s old_owner, s new_owner)` for the server's name.
  func handleOwnerChanged(_ message: BusMessage) throws(BusFailure) {
    guard try message.readString() == DesktopSink.busName else { return }
    let oldOwner = try message.readString()
    let newOwner = try message.readString()
    report(session.ownerChanged(from: oldOwner, to: newOwner))
    noteServerPresent(!newOwner.isEmpty, owner: newOwner.isEmpty ? nil : newOwner)
  }

  func emit(
    _ kind: DesktopEvent.Kind, for delivery: Delivery, serverID: UInt32, token: String? = nil,
    userText: String? = nil
  ) {
    let notification = delivery.notification
    onEvent?(
      DesktopEvent(
        kind: kind, app: notification.app, id: notification.id, occurrence: delivery.occurrence,
        userInfo: notification.userInfo, launchImage: notification.launchImage, serverID: serverID,
        notification: notification, activationToken: token, userText: userText))
  }
}
