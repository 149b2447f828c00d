import Notify
import ServiceLifecycle

// Sources/Notify/Notify.docc/FiringInProcess.md
func firingServiceExample() async throws {
  let center = try LocalNotificationCenter(app: "chat")
  let group = ServiceGroup(
    services: [center.firingService(), ChatService()], gracefulShutdownSignals: [.sigterm, .sigint])
  try await group.run()
}

func listenOnlyExample(center: LocalNotificationCenter) -> NotificationFiringService {
  let listener = center.firingService(firesScheduledNotifications: false)
  return listener
}

func presentationExample(center: LocalNotificationCenter) {
  center.setPresentationHandler { notification in
    notification.threadIdentifier == "irc.alice" && userIsTyping ? .none : .all
  }
}

func eventsExample(center: LocalNotificationCenter) async {
  for await event in center.events {
    switch event.kind {
    case .delivered: print("shown:", event.notification.id)
    case .activated(let actionKey): print("clicked:", actionKey, event.userText ?? "")
    case .dismissed(let reason): print("closed:", reason ?? "")
    }
  }
}

func loggingExample() throws -> LocalNotificationCenter {
  NotifyLogging.level = .info
  let loggingCenter = try LocalNotificationCenter(app: "chat")
  return loggingCenter
}
