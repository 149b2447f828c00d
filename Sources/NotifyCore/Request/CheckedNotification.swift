/// A notification the rules of SPEC.md §1 have passed (`Validator.notification`): the
/// store takes it as it is, so a request is checked once on its way in, whichever door it
/// came through (`RequestCodec`), and never again on the way to its row.
public struct CheckedNotification: Hashable, Sendable {
  /// The notification.
  public let notification: LocalNotification

  /// Checks `notification`.
  public init(_ notification: LocalNotification) throws(NotifyError) {
    try Validator.notification(notification)
    self.notification = notification
  }

  /// A notification checked by the caller itself.
  private init(checked notification: LocalNotification) { self.notification = notification }

  /// This notification carrying `attachments` (copies kept for it): only their number is a
  /// rule of the notification's, so only it is checked again.
  public func attaching(_ attachments: [NotificationAttachment]) throws(NotifyError) -> CheckedNotification {
    guard !attachments.isEmpty else { return self }
    var n = notification
    n.attachments += attachments
    try Validator.attachmentCount(n.attachments.count)
    return CheckedNotification(checked: n)
  }

  /// This notification with its rule's ends settled (`Schedule.withRuleEnds`), which the
  /// check already read them as.
  public func withRuleEnds() throws(NotifyError) -> CheckedNotification {
    var n = notification
    n.schedule = try n.schedule.withRuleEnds()
    return CheckedNotification(checked: n)
  }
}
