import Notify

// Sources/Notify/Notify.docc/BackgroundTasks.md
func backgroundTaskExample(center: LocalNotificationCenter) async throws {
  let task = center.beginBackgroundTask(name: "flush", budget: .seconds(10)) {
    print("the budget is nearly spent: stop starting new work")
  }
  defer { task.end() }
  try await center.deliverDueNotifications(within: task)
  print("\(task.timeRemaining) s left")
}

func backgroundBudgetExample(center: LocalNotificationCenter) async throws {
  let sync = center.beginBackgroundTask(name: "sync", budget: .seconds(5)) {}
  defer { sync.end() }
  for message in ["a", "b", "c"] where !sync.isExpired {
    try await center.add(NotificationRequest(content: NotificationContent(body: message), trigger: nil))
  }
}
