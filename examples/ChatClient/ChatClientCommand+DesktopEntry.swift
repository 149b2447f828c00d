import Foundation
import Notify
import NotifyCore

extension ChatClientCommand {
  /// `--install-desktop-entry`: writes `APP.desktop` in the user's applications folder,
  /// atomically (a temporary file renamed over it), with an `Exec` line that starts this
  /// very executable with the options given; returns its path. Connects to nothing.
  func installEntry() throws(ChatError) -> String {
    let entry = ChatDesktopEntry(command: [try Self.ownExecutable()] + (try launchOptions()))
    let text: String
    do {
      text = try entry.text()
    } catch {
      let problem: String
      if case .unwritableExec(let what) = error { problem = what } else { problem = error.description }
      throw ChatError(
        "--install-desktop-entry: the options cannot be written as an Exec line (\(problem))",
        fix: "give options without control characters", exitCode: 64)
    }
    let app = resolvedApp().id
    guard let id = DesktopFileID(app) else {
      throw ChatError(
        "--install-desktop-entry: the app id '\(Escaper.visible(app))' cannot name a desktop file",
        fix: "use letters, digits, '.', '_' and '-' in --app", exitCode: 64)
    }
    let folder = ChatDesktopEntry.folder(
      environment: ProcessInfo.processInfo.environment, home: NSHomeDirectory())
    return try Self.write(text, to: folder + "/" + id.fileName)
  }

  /// The options the launched client gets: those given here, checked as a run would check
  /// them, with `--db` made absolute (the daemon starts it in another folder).
  private func launchOptions() throws(ChatError) -> [String] {
    _ = try ServerAddress.parse(server)
    try ChatNames.checkNick(nick)
    var options = ["--server", server, "--nick", nick, "--channel", try ChatNames.channel(channel)]
    if let db {
      let absolute = db.hasPrefix("/") ? db : FileManager.default.currentDirectoryPath + "/" + db
      options += ["--db", URL(fileURLWithPath: absolute).standardizedFileURL.path]
    }
    let app = resolvedApp()
    if app.given { options += ["--app", app.id] }
    if let sink { options += ["--sink", sink.rawValue] }
    if offlineBudget != Self.defaultOfflineBudget { options += ["--offline-budget", offlineBudget] }
    _ = try reconnectPolicy()
    if reconnectAttempts != ReconnectPolicy.standard.attempts {
      options += ["--reconnect-attempts", String(reconnectAttempts)]
    }
    if reconnectDelay != Self.defaultReconnectDelay { options += ["--reconnect-delay", reconnectDelay] }
    if noFiring { options.append("--no-firing") }
    return options
  }

  /// The absolute path of the running executable, links resolved.
  static func ownExecutable() throws(ChatError) -> String {
    guard let resolved = realpath("/proc/self/exe", nil) else {
      throw ChatError(
        "cannot find the client's own executable: \(String(cString: strerror(errno)))", exitCode: 74)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Writes `text` to `path` through a temporary file in the same folder renamed over it,
  /// so that a reader sees the old entry or the new one, never part of one.
  private static func write(_ text: String, to path: String) throws(ChatError) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    func failure(_ what: String) -> ChatError {
      ChatError(
        "cannot \(what): \(String(cString: strerror(errno)))", fix: "check that the folder is writable",
        exitCode: 74)
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw ChatError("cannot create \(folder): \(error.localizedDescription)", exitCode: 74)
    }
    var template = Array((folder + "/.chat-client-entry.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure("create a file in \(folder)") }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let error = failure("write \(temporary)")
        close(fd)
        unlink(temporary)
        throw error
      }
      written += count
    }
    // Readable by all, as entries in ~/.local/share/applications are (mkstemp makes 0600).
    guard fchmod(fd, 0o644) == 0, fsync(fd) == 0, close(fd) == 0 else {
      let error = failure("write \(temporary)")
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let error = failure("rename \(temporary) to \(path)")
      unlink(temporary)
      throw error
    }
    return path
  }
}
