import Foundation
import Notify

// README.md
func readmeExample() async throws {
  let center = try LocalNotificationCenter(app: "chat")
  let content = NotificationContent(title: "Standup", userInfo: ["room": "4B"])
  try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
  for await event in center.events {
    print(event.kind, event.userInfo["room"]?.stringValue ?? "")
  }
}

// docs/time-and-rules.md
func calendarRuleExample(center: LocalNotificationCenter, content: NotificationContent, nineAM: WallClock)
  async throws
{
  // or RecurrenceRule(frequency: .weekly, byDay: [...])
  let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
  try await center.add(
    NotificationRequest(
      content: content, trigger: .calendar(rule, from: WallClock(year: 2026, month: 11, day: 23, hour: 9))))
  try await center.add(
    NotificationRequest(
      content: content,
      trigger: .wallClock(nineAM, in: .named("Europe/Berlin")).repeating(by: rule, count: 10)))
}

// docs/settings-and-quiet-hours.md
func settingsExample(center: LocalNotificationCenter) async throws {
  let granted = try await center.requestAuthorization(options: [.banner, .sound])  // [.banner]: sounds off
  let settings = try await center.notificationSettings()  // .alerts, .sounds, .badges
  print(granted, settings)
}

// docs/actions.md
func launchExample(center: LocalNotificationCenter) async {
  for await event in center.events {  // the app's one loop over what happens
    if event.origin == .launch {  // launchOptions[.localNotification]: yielded first
      open(conversation: event.userInfo["sender"]?.stringValue)  // .notification, .kind, .activationToken
    }
  }
}

func foregroundExample(center: LocalNotificationCenter) {
  center.setPresentationHandler { notification in userIsTyping ? .none : .all }  // [.banner, .sound, .badge]
}

func replyExample(center: LocalNotificationCenter) async {
  for await event in center.events {  // .waited ones right after the launch one, oldest first
    if event.kind == .activated(actionKey: "reply"), let text = event.userText {
      send(text, to: event.userInfo["sender"]?.stringValue)
    }
  }
}

func categoriesExample(center: LocalNotificationCenter) async throws {
  try await center.setNotificationCategories([
    NotificationCategory(
      identifier: "message",
      actions: [.textInput(key: "reply", title: "Reply"), .button(key: "mark-read", title: "Mark read")])
  ])
  let content = NotificationContent(title: "alice", body: "lunch?", categoryIdentifier: "message")
  try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(300))))
  let registered = try await center.notificationCategories()  // Set<NotificationCategory>
  print(registered)
}
