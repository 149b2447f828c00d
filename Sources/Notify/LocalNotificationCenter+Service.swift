import Foundation
import NotifyCore
import NotifyDesktop

extension LocalNotificationCenter {
  /// Where this center's calls go (`CenterBackend`): the service inside a Flatpak sandbox
  /// that reaches it, else the center's own store.
  package var backend: CenterBackend { service.map { .service(app: $0.app) } ?? .ownStore }

  /// The notification `request` stands for, made and checked here as `add` makes it for
  /// the store (the service checks it again): nil trigger means now.
  func serviceNotification(_ request: NotificationRequest) throws(NotificationError) -> LocalNotification {
    do throws(NotifyError) {
      let now = clock.now()
      let schedule =
        try request.trigger?.schedule(now: now, database: clock.zones.database)
        ?? Schedule(fireDate: .instant(now))
      return try request.content.checked(id: request.identifier, app: app, schedule: schedule, now: now)
        .notification
    } catch {
      throw NotificationError(error)
    }
  }

  /// The backend for a center of `app` made by the app (`init(app:storePath:sink:clock:)`),
  /// and the client when it is the service.
  static func serviceClient(app: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(NotifyError) -> SchedulerClient?
  {
    let backend = try CenterBackend.decide(app: app, sandbox: FlatpakApp.current(environment: environment)) {
      SchedulerClient.serviceReachable()
    }
    guard case .service(let sandboxApp) = backend else { return nil }
    do {
      return try SchedulerClient(app: sandboxApp)
    } catch {
      throw NotifyError(.unavailable, error.description)
    }
  }
}
