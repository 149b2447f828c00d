import Notify

// Sources/Notify/Notify.docc/GettingStarted.md
func gettingStartedCenter() throws -> LocalNotificationCenter {
  let center = try LocalNotificationCenter(app: "chat")
  return center
}

func gettingStartedSchedule(center: LocalNotificationCenter) async throws {
  try await center.add(
    NotificationRequest(
      identifier: "standup",
      content: NotificationContent(
        title: "Standup", body: "Room 4B", sound: .default, userInfo: ["room": "4B"]),
      trigger: .wallClock(WallClock(year: 2026, month: 11, day: 23, hour: 9)).repeating(every: .day)))
  try await center.add(
    NotificationRequest(content: NotificationContent(body: "Stand up"), trigger: .after(.seconds(600))))
}

func gettingStartedRule(center: LocalNotificationCenter) async throws {
  let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
  try await center.add(
    NotificationRequest(
      content: NotificationContent(title: "Standup"),
      trigger: .calendar(
        rule, from: WallClock(year: 2026, month: 11, day: 23, hour: 9), in: .named("Europe/Berlin"))))
}

func gettingStartedPresent(center: LocalNotificationCenter) async throws {
  let delivery = try await center.add(
    NotificationRequest(
      content: NotificationContent(
        body: "SteveJ: Hello, world!", sound: .default, badge: 3, userInfo: ["sender": "SteveJ"]),
      trigger: nil))
  print(delivery?.held == true ? "held for quiet hours" : "shown")
}

func gettingStartedActions(center: LocalNotificationCenter) async throws {
  try await center.add(
    NotificationRequest(
      content: NotificationContent(
        title: "bob", body: "lunch?", userInfo: ["sender": "bob"],
        actions: [
          .textInput(key: "reply", title: "Reply", placeholder: "Message to bob"),
          .button(key: "mark-read", title: "Mark read"), .snooze(seconds: 600),
        ]),
      trigger: nil))
}

func gettingStartedResponses(center: LocalNotificationCenter) async {
  for await event in center.events {
    switch event.kind {
    case .activated(actionKey: "reply"):
      if let text = event.userText { send(text, to: event.userInfo["sender"]?.stringValue) }
    case .activated:  // "default" is a click on the notification itself
      open(conversation: event.userInfo["sender"]?.stringValue)
    case .delivered:  // shown by this process (or given to the app: presentation .none)
      break
    case .dismissed:
      break
    }
  }
}

func gettingStartedPending(center: LocalNotificationCenter) async throws {
  let pending = try await center.pendingNotificationRequests()  // soonest first: the requests add took
  try await center.removePendingNotificationRequests(withIdentifiers: ["standup"])
  let onScreen = try await center.delivered()  // newest first
  try await center.removeDeliveredNotifications(withIdentifiers: onScreen.map(\.notificationID))
  let held = try await center.held()  // what quiet hours hold
  print(pending.count, held.count, try await center.history(limit: 20).count)
}

func gettingStartedAuthorization(center: LocalNotificationCenter) async throws {
  let granted = try await center.requestAuthorization(options: [.banner, .sound, .badge])
  if !granted.contains(.sound) { print("sounds are off for this app") }
}

func gettingStartedErrors(center: LocalNotificationCenter) async {
  do {
    try await center.add(
      NotificationRequest(content: NotificationContent(title: "Later"), trigger: .after(.seconds(60))))
  } catch .limitReached(let id, let why) {
    print(id ?? "", why)  // 64 of the app's notifications fire sooner
  } catch .storeBusy {
    // another process held the store with no progress for the busy timeout: try again later
  } catch .invalidContent(let field, let violation, let why) {
    print(field.map { "\($0)" } ?? "a value", violation.map { "\($0)" } ?? "", why)
  } catch {
    print(error)
  }
}

func gettingStartedUserInfo() {
  let info: [String: JSONValue] = ["room": "4B", "unread": 3, "muted": false]
  let room = info["room"]?.stringValue  // also .intValue, .boolValue, .arrayValue, ...
  print(room ?? "", info["unread"]?.intValue ?? 0)
}
