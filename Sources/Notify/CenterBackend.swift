import NotifyCore

/// Where a center's calls go (docs/sandboxes.md), decided once when the
/// center is made:
///
/// - outside a sandbox: its own store (the one the daemon shares), as always;
/// - inside a Flatpak sandbox whose session bus has notify's service
///   (`io.github.notify.Scheduler1` owned, or activatable): the service, for the sandbox's
///   app id, so that what the app schedules fires on the host while the app is closed;
/// - inside a Flatpak sandbox without it: its own store in the sandbox, shown through the
///   Notification portal while the app runs.
///
/// Pure apart from `serviceReachable`, which is asked only inside a sandbox (a process
/// outside one never probes the bus for it).
///
/// The center then sends every public call to the matching `CenterCalls`:
/// `OwnStoreBackend` or `ServiceBackend` (decisions/0119).
package enum CenterBackend: Hashable, Sendable {
  /// The center's own store.
  case ownStore
  /// notify's service, acting for the sandbox's app `app`.
  case service(app: String)

  /// The backend for a center of `app`, in `sandbox` (nil: none).
  ///
  /// Throws when the service would be used and `app` is not the sandbox's: the service acts
  /// for the sandbox's app only and would refuse every call, so the center says so at once.
  package static func decide(app: String, sandbox: FlatpakApp?, serviceReachable: () -> Bool)
    throws(NotifyError) -> CenterBackend
  {
    guard let sandbox, serviceReachable() else { return .ownStore }
    guard app == sandbox.id else {
      throw NotifyError(
        .notAllowed,
        "a sandboxed app acts for itself only: this process is the Flatpak app '\(sandbox.id)' (its /.flatpak-info), not '\(Escaper.visible(app))'",
        fix: "make the center with app: \"\(sandbox.id)\"")
    }
    return .service(app: sandbox.id)
  }
}
