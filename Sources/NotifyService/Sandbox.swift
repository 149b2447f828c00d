import NotifyCore

/// The sandbox a caller runs in, as far as notify recognises one, and so which app it may
/// act for. Decided once per connection, from what the process's root shows
/// (`SandboxEvidence`), the way xdg-desktop-portal decides it: only Flatpak is recognised.
enum Sandbox: Hashable, Sendable {
  /// Not sandboxed: the process shares the daemon's root. It names its app, as `--app` does.
  case none
  /// A Flatpak app: it acts for `app` (the `name` of its `/.flatpak-info`) and no other.
  case flatpak(app: String)
  /// A process in another root that notify cannot identify (no readable `/.flatpak-info`,
  /// an unusable one, a sandbox of another kind): refused, never taken as unsandboxed.
  case unidentified(reason: String)
  /// A connection whose process notify cannot tell is the one that made it (its pid was
  /// reused, its process exited): refused, whatever holds the pid now.
  case unverified(reason: String)

  /// The decision for what was found at the caller's process, once its process is known
  /// to be the one that made the connection (`origin`).
  static func decide(_ evidence: SandboxEvidence, origin: ProcessOrigin, pid: Int32?) -> Sandbox {
    if let pid, let refusal = origin.refusal(pid: pid) { return .unverified(reason: refusal) }
    return decide(evidence)
  }

  /// The decision for what was found at the caller's process.
  static func decide(_ evidence: SandboxEvidence) -> Sandbox {
    switch evidence {
    case .unknownProcess:
      return .unidentified(reason: "the bus did not say which process is calling")
    case .sameRoot:
      return .none
    case .unreadable(let why):
      return .unidentified(reason: why)
    case .flatpakInfo(let bytes):
      let info: FlatpakInfo
      do { info = try FlatpakInfo(parsing: bytes) } catch {
        return .unidentified(reason: "its /.flatpak-info is not a key file: \(error.description)")
      }
      guard let name = info.appName else {
        return .unidentified(reason: "its /.flatpak-info names no app ([Application] name=)")
      }
      do { try Validator.app(name) } catch {
        return .unidentified(
          reason:
            "its /.flatpak-info names the app '\(Escaper.visible(name, limit: 128))', which notify cannot store: \(error.description)"
        )
      }
      return .flatpak(app: name)
    }
  }
}
