import Notify

// Sources/Notify/Notify.docc/APNsPayloads.md
func apnsExample(center: LocalNotificationCenter) async throws {
  let content = try NotificationContent(
    apnsPayload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1},"room":"4B"}"#)
  // content.body == "SteveJ: Hello, world!", content.sound == .default,
  // content.badge == 1, content.userInfo == ["room": "4B"]
  try await center.add(NotificationRequest(content: content, trigger: nil))
}

func apnsLocalizedExample() throws -> NotificationContent {
  let localized = try NotificationContent(
    apnsPayload: #"{"aps":{"alert":{"loc-key":"MSG_FROM","loc-args":["bob"]}}}"#,
    localizedStrings: ["MSG_FROM": "Message from %@"])
  // localized.body == "Message from bob"
  return localized
}

func apnsErrorExample() {
  do {
    _ = try NotificationContent(apnsPayload: #"{"aps":{"badge":"three"}}"#)
  } catch {
    print(error)  // names the key at fault and the fix
  }
}
