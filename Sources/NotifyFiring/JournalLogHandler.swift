import CSystemd
import Foundation
import Glibc
import Logging

/// A swift-log handler that writes to the systemd journal with structured fields when the
/// process runs under systemd, and one line per message to stderr otherwise.
///
/// Metadata keys become journal fields (`notify_id` → `NOTIFY_ID`), so
/// `journalctl --user NOTIFY_APP=chat` finds one app's records. Callers log ids and apps,
/// never a notification's body or userInfo (SPEC.md, security).
///
/// ```swift
/// LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
/// logger.info("delivered", metadata: [LogKey.id: "\(id)", LogKey.app: "\(app)"])
/// ```
public struct JournalLogHandler: LogHandler {
  /// Where records go.
  public enum Destination: Sendable {
    /// `sd_journal_sendv`.
    case journal
    /// `notify: LEVEL: message key=value` lines on stderr.
    case standardError
  }

  /// The label given at bootstrap.
  public let label: String
  /// Where this handler writes.
  public let destination: Destination
  /// Records below this level are dropped.
  public var logLevel: Logger.Level
  /// Metadata attached to every record of this handler.
  public var metadata: Logger.Metadata = [:]

  /// Creates a handler; `destination` defaults to the journal under systemd.
  public init(label: String, destination: Destination? = nil, logLevel: Logger.Level = .info) {
    self.label = label
    self.destination = destination ?? (JournalLogHandler.runsUnderSystemd() ? .journal : .standardError)
    self.logLevel = logLevel
  }

  /// Reads or writes one metadata value.
  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// Writes one record.
  public func log(event: LogEvent) {
    var fields = metadata
    if let extra = event.metadata { fields.merge(extra) { $1 } }
    switch destination {
    case .journal: sendToJournal(event, fields)
    case .standardError: writeToStandardError(event, fields)
    }
  }

  /// True when stderr is connected to the journal (`JOURNAL_STREAM` names its device and
  /// inode) or the process is a systemd unit (`INVOCATION_ID`).
  public static func runsUnderSystemd(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    isJournalStream(2, environment: environment)
      || (environment["INVOCATION_ID"].map { !$0.isEmpty } ?? false)
  }

  /// True when `fd` is the journal's stream that `JOURNAL_STREAM` names (its device and
  /// inode, as systemd.exec(5) says to check).
  public static func isJournalStream(
    _ fd: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    guard let stream = environment["JOURNAL_STREAM"] else { return false }
    var info = stat()
    return fstat(fd, &info) == 0 && stream == "\(info.st_dev):\(info.st_ino)"
  }

  /// The journal field name for a metadata key: upper case, `[A-Z0-9_]`, no leading `_`.
  static func fieldName(_ key: String) -> String {
    var name = String(
      key.uppercased().unicodeScalars.map { scalar -> Character in
        let c = Character(scalar)
        return ("A"..."Z").contains(c) || ("0"..."9").contains(c) ? c : "_"
      })
    while name.hasPrefix("_") { name.removeFirst() }
    if name.first.map({ ("0"..."9").contains($0) }) ?? true { name = "F" + name }
    return String(name.prefix(64))
  }

  /// syslog priority for a level.
  static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }

  private func sendToJournal(_ event: LogEvent, _ fields: Logger.Metadata) {
    var entries = [
      "MESSAGE=\(event.message)", "PRIORITY=\(JournalLogHandler.priority(event.level))",
      "SYSLOG_IDENTIFIER=notify", "NOTIFY_LOGGER=\(label)",
    ]
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      entries.append("\(JournalLogHandler.fieldName(key))=\(value)")
    }
    let buffers = entries.map { Array($0.utf8) }
    var vectors = [iovec]()
    var pinned = buffers.map { buffer -> UnsafeMutableRawPointer in
      let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, buffer.count), alignment: 1)
      buffer.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: buffer.count) }
      return memory
    }
    for (memory, buffer) in zip(pinned, buffers) {
      vectors.append(iovec(iov_base: memory, iov_len: buffer.count))
    }
    _ = notify_journal_sendv(vectors, Int32(vectors.count))
    pinned.forEach { $0.deallocate() }
    pinned.removeAll()
  }

  private func writeToStandardError(_ event: LogEvent, _ fields: Logger.Metadata) {
    var line = "notify: \(event.level): \(event.message)"
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      line += " \(key.replacingOccurrences(of: "notify_", with: ""))=\(value)"
    }
    line += "\n"
    // One write(2) per record keeps lines whole when several processes share stderr.
    let bytes = Array(line.utf8)
    bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }
}

/// Metadata keys the firing code logs with; they become `NOTIFY_ID` and `NOTIFY_APP`.
public enum LogKey {
  /// The notification id.
  public static let id = "notify_id"
  /// The app id.
  public static let app = "notify_app"
  /// The 1-based occurrence.
  public static let occurrence = "notify_occurrence"
}
