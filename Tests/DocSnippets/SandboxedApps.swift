import Notify

// Sources/Notify/Notify.docc/SandboxedApps.md
func sandboxedCenterExample() async {
  do {
    let center = try LocalNotificationCenter(app: "org.example.Chat")  // the Flatpak app id
    try await center.add(
      NotificationRequest(content: NotificationContent(title: "Standup"), trigger: .after(.seconds(600))))
  } catch {
    print(error)  // made for another id: "a sandboxed app acts for itself only: ..."
  }
}

func recordOwnClick(_ center: LocalNotificationCenter, id: String) async {
  do {
    try await center.recordActivation(of: id, actionKey: "default")
  } catch .notAvailable(let why) {
    print(why)  // inside a sandbox with notify's service
  } catch {
    print(error)
  }
}
