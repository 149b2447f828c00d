/// What the caller's process shows of its sandbox: the facts `Sandbox.decide` takes, read by
/// `ProcessRoot` from `/proc/PID/root`.
enum SandboxEvidence: Equatable, Sendable {
  /// The bus did not say the caller's process.
  case unknownProcess
  /// The process's root is the daemon's own: it is not in a sandbox.
  case sameRoot
  /// Another root, holding `/.flatpak-info` as a regular file: its bytes.
  case flatpakInfo([UInt8])
  /// Another root (or one that could not be opened) without a readable `/.flatpak-info`: why.
  case unreadable(String)
}
