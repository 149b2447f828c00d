import Notify

// Sources/Notify/Notify.docc/Notify.md
func landingExample() async throws {
  let center = try LocalNotificationCenter(app: "chat")
  try await center.add(
    NotificationRequest(
      content: NotificationContent(body: "SteveJ: Hello, world!", sound: .default, badge: 1), trigger: nil))
  try await center.add(
    NotificationRequest(content: NotificationContent(body: "Stand up"), trigger: .after(.seconds(600))))
}
