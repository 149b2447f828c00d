import NotifyCore

/// What this process knows of the notification server it talks to: who answers as the
/// server (its unique bus name), what it can do, the bubbles it shows for us, and the
/// server id of each notification's last bubble (sent as `replaces_id`).
///
/// Pure state, fed by the sink with replies and signals; every server id taken back comes
/// back as a value for the sink to pass on (a store forgets them; an id given goes back in
/// the delivery's receipt). Ids only mean something to the server instance that gave them:
/// when another one answers, they are forgotten.
struct ServerSession {

  /// How many shown notifications are remembered for signals; the oldest are forgotten.
  static let trackedLimit = 4096

  /// The unique name of the server that answered last; signals from others are ignored.
  private(set) var owner: String?
  /// The server's capabilities (`GetCapabilities`).
  private(set) var capabilities: Set<String> = []
  /// True when `capabilities` must be read again before the next notification.
  private(set) var capabilitiesStale = true
  /// What was shown, by server id, so signals can be tied back to notifications.
  private var shown: [UInt32: Delivery] = [:]
  /// The server id of each notification's last bubble.
  private(set) var serverIDs: [DesktopNotificationKey: UInt32] = [:]
  /// Activation tokens sent ahead of the activation they belong to, by server id.
  private var activationTokens: [UInt32: String] = [:]

  /// `owner` answered a call. Returns whether it is another server than before (one that
  /// was restarted or replaced), and the ids that this forgot.
  mutating func answered(by owner: String?) -> (changed: Bool, forgotten: [DesktopNotificationKey]) {
    guard let owner, owner != self.owner else { return (false, []) }
    let previous = self.owner
    self.owner = owner
    guard previous != nil else { return (false, []) }
    capabilitiesStale = true
    return (true, forgetServer())
  }

  /// `GetCapabilities` answered.
  mutating func read(capabilities: Set<String>) {
    self.capabilities = capabilities
    capabilitiesStale = false
  }

  /// A new connection: bubbles shown through the old one send their signals there, and
  /// the capabilities are read again.
  mutating func connectionDropped() {
    shown.removeAll()
    capabilitiesStale = true
  }

  /// `delivery` is on screen as `serverID`. A bubble that showed another notification
  /// before (a thread's, replaced by its latest) is that one's no more.
  mutating func showed(_ delivery: Delivery, as serverID: UInt32) {
    if shown.count >= Self.trackedLimit, let oldest = shown.keys.min() { shown[oldest] = nil }
    let key = DesktopNotificationKey(app: delivery.notification.app, id: delivery.notification.id)
    if let before = shown[serverID]?.notification,
      case let earlier = DesktopNotificationKey(app: before.app, id: before.id), earlier != key,
      serverIDs[earlier] == serverID
    {
      serverIDs[earlier] = nil
    }
    shown[serverID] = delivery
    serverIDs[key] = serverID
  }

  /// The bubbles still on screen, as far as signals tell, oldest first (each
  /// notification's last one, at most `ShownBubble.handOverLimit`), forgotten here:
  /// another process takes them over.
  mutating func handOverShownBubbles() -> [ShownBubble] {
    defer { shown.removeAll() }
    let bubbles = shown.sorted { $0.key < $1.key }.compactMap { serverID, delivery -> ShownBubble? in
      let key = DesktopNotificationKey(app: delivery.notification.app, id: delivery.notification.id)
      guard serverIDs[key] == serverID else { return nil }
      return ShownBubble(
        notification: delivery.notification, occurrence: delivery.occurrence, serverID: serverID)
    }
    return Array(bubbles.suffix(ShownBubble.handOverLimit))
  }

  /// The delivery on screen as `serverID`, if it is ours.
  func delivery(shownAs serverID: UInt32) -> Delivery? { shown[serverID] }

  /// `ActivationToken` arrived for `serverID`; the activation follows.
  mutating func noteActivationToken(_ token: String, for serverID: UInt32) {
    if activationTokens.count >= 64 { activationTokens.removeAll() }
    activationTokens[serverID] = token
  }

  /// The token that came ahead of `serverID`'s activation, taken once.
  mutating func takeActivationToken(for serverID: UInt32) -> String? {
    activationTokens.removeValue(forKey: serverID)
  }

  /// The bubble `serverID` went away: the delivery it showed, and the notification whose
  /// id was taken back (nil when a newer bubble shows it now).
  mutating func closed(_ serverID: UInt32) -> (delivery: Delivery, forgotten: DesktopNotificationKey?)? {
    activationTokens[serverID] = nil
    guard let delivery = shown.removeValue(forKey: serverID) else { return nil }
    let key = DesktopNotificationKey(app: delivery.notification.app, id: delivery.notification.id)
    guard serverIDs[key] == serverID else { return (delivery, nil) }
    serverIDs[key] = nil
    return (delivery, key)
  }

  /// `NameOwnerChanged` for the server's name; returns the notifications whose ids were
  /// forgotten.
  mutating func ownerChanged(from oldOwner: String, to newOwner: String) -> [DesktopNotificationKey] {
    if let owner, oldOwner == owner {
      // Our server lost the name: its ids mean nothing to the next one.
      self.owner = newOwner.isEmpty ? nil : newOwner
      capabilitiesStale = true
      return forgetServer()
    }
    if owner == nil, !newOwner.isEmpty {
      owner = newOwner
      capabilitiesStale = true
    }
    // Otherwise the change is old news: a reply from the new server was already seen.
    return []
  }

  /// Only the server that answered our calls may tell us about our notifications.
  func isFromServer(_ sender: String?) -> Bool {
    guard let sender, let owner else { return false }
    return sender == owner
  }

  private mutating func forgetServer() -> [DesktopNotificationKey] {
    shown.removeAll()
    defer { serverIDs.removeAll() }
    return Array(serverIDs.keys)
  }
}
