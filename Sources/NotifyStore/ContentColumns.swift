import Foundation
import GRDB
import NotifyCore

/// The columns that keep a notification as it was shown, in the tables that outlive it
/// (`response`, `left_bubble`, `held`): id, app, title, body, action, launch image, sound, badge,
/// userInfo, urgency, actions, subtitle, interruption level, thread, attachments, whether the
/// body is marked up, the thread's summary format, the category it names, the alarm.
enum ContentColumns {
  static let names =
    "app, notification_id, title, body, action, launch_image, sound, badge, user_info, urgency, actions, subtitle, interruption_level, thread, attachments, body_markup, thread_summary, category, realert"
  static let placeholders = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"

  static func values(_ n: LocalNotification) -> StatementArguments {
    [
      n.app, n.id, n.title, n.body, n.action, n.launchImage, n.sound.name, n.badge,
      JSONValue.object(n.userInfo).compactText, n.urgency.rawValue, NotificationAction.storeText(n.actions),
      n.subtitle, n.interruptionLevel.rawValue, n.threadIdentifier,
      NotificationAttachment.storeText(n.attachments), n.bodyMarkup, n.threadSummary, n.categoryIdentifier,
      Realert.storeText(n.realert),
    ]
  }

  /// The notification a row keeps, as if it fired at `date`.
  static func notification(_ row: Row, date: Date) -> LocalNotification {
    var userInfo: [String: JSONValue] = [:]
    if case .object(let members)? = try? JSONValue.parse(row["user_info"]) { userInfo = members }
    return LocalNotification(
      id: row["notification_id"], app: row["app"], schedule: Schedule(fireDate: .instant(date)),
      title: row["title"], body: row["body"], action: row["action"], launchImage: row["launch_image"],
      sound: SoundName(row["sound"]), badge: row["badge"], userInfo: userInfo,
      urgency: Urgency(rawValue: row["urgency"]) ?? .normal,
      actions: NotificationAction.fromStoreText(row["actions"]), subtitle: row["subtitle"],
      interruptionLevel: (row["interruption_level"] as String?).flatMap(InterruptionLevel.init(rawValue:)),
      threadIdentifier: row["thread"], threadSummary: row["thread_summary"],
      attachments: NotificationAttachment.fromStoreText(row["attachments"]),
      bodyMarkup: (row["body_markup"] as Int?) == 1, categoryIdentifier: row["category"],
      realert: Realert.fromStoreText(row["realert"]), createdAt: date)
  }
}
