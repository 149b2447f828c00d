import Foundation
import NotifyCore
import NotifyDesktop

/// Reads what a process shows of its sandbox (`SandboxEvidence`) from `/proc/PID/root`, as
/// xdg-desktop-portal does: the root opened as a directory, then `.flatpak-info` opened in
/// it. Decides nothing: an error is reported as what it is, and `Sandbox.decide` refuses it.
enum ProcessRoot {
  /// The evidence of the process that made a connection (`credentials`, from the bus),
  /// read from its root, and whether that process is still the one at its pid
  /// (`ProcessOrigin`): through its pidfd where the bus gives one (closed here), else by
  /// its start time against `connectionBy`, read after the root, so that a process that
  /// still runs then, started before the connection, was the one there all along.
  static func evidence(of credentials: PeerCredentials, connectionBy: UInt64) -> (
    SandboxEvidence, ProcessOrigin
  ) {
    if let fd = credentials.processFD {
      defer { close(fd) }
      guard let pid = ProcessStart.pid(ofPidfd: fd) else {
        return (.unknownProcess, .pidfd(alive: false))
      }
      let evidence = evidence(pid: pid)
      var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      // (a pidfd reads as ready once its process has exited)
      let alive = Glibc.poll(&poll, 1, 0) == 0
      return (evidence, .pidfd(alive: alive))
    }
    let evidence = evidence(pid: credentials.pid)
    guard let pid = credentials.pid, let start = ProcessStart.bootNanoseconds(pid: pid) else {
      return (
        evidence, .unknown("cannot read when the process \(credentials.pid.map(String.init) ?? "?") started")
      )
    }
    return (evidence, .started(at: start, connectionBy: connectionBy))
  }

  /// The evidence for the process `pid` (nil: the bus did not say).
  static func evidence(pid: Int32?) -> SandboxEvidence {
    guard let pid, pid > 0 else { return .unknownProcess }
    let path = "/proc/\(pid)/root"
    // O_PATH is not enough: the file is opened relative to it.
    let root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard root >= 0 else { return .unreadable("cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { close(root) }
    var rootStat = stat()
    var ownStat = stat()
    guard fstat(root, &rootStat) == 0, stat("/", &ownStat) == 0 else {
      return .unreadable("cannot stat \(path): \(String(cString: strerror(errno)))")
    }
    if rootStat.st_dev == ownStat.st_dev && rootStat.st_ino == ownStat.st_ino { return .sameRoot }
    // No symbolic link: one in the sandbox would be resolved in the daemon's root, not the
    // sandbox's (Flatpak bind-mounts a regular file there).
    let info = openat(root, ".flatpak-info", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard info >= 0 else {
      return .unreadable(
        "its root is not the daemon's and has no readable /.flatpak-info (\(String(cString: strerror(errno))))"
      )
    }
    defer { close(info) }
    var infoStat = stat()
    guard fstat(info, &infoStat) == 0, infoStat.st_mode & S_IFMT == S_IFREG else {
      return .unreadable("its /.flatpak-info is not a regular file")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= FlatpakInfo.maximumBytes {
      let count = buffer.withUnsafeMutableBytes { read(info, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        return .unreadable("cannot read its /.flatpak-info: \(String(cString: strerror(errno)))")
      }
      if count == 0 { return .flatpakInfo(bytes) }
      bytes += buffer[0..<count]
    }
    return .unreadable("its /.flatpak-info is longer than \(FlatpakInfo.maximumBytes) bytes")
  }
}
