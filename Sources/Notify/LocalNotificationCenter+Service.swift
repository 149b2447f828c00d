import Foundation
import NotifyCore
import NotifyDesktop

extension LocalNotificationCenter {
  /// Where this center's calls go (`CenterBackend`): the service inside a Flatpak sandbox
  /// that reaches it, else the center's own store.
  package var backendKind: CenterBackend { backend.kind }

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
