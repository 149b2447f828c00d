import Foundation
import NotifyCore

/// A firer's record of what it handed to its sink and has not yet recorded in the store:
/// one line per hand-off, appended with one `write(2)` right after the sink took it.
///
/// It is what lets a burst be handed over together and recorded in one transaction
/// afterwards without weakening SPEC.md §6: when the firer dies before that transaction,
/// the next firer finds these lines beside the dead firer's claims and records those
/// occurrences as delivered instead of handing them over again. Only the one hand-off a
/// crash interrupts between the sink's write and this line can repeat. The page cache
/// keeps the line through `kill -9`, as it keeps SQLite's WAL (`synchronous = NORMAL`).
///
/// The file sits beside the store, `STORE-handoff-PID-STARTTIME-BOOT`, 0600 like every
/// file of the store; it is emptied once its lines are recorded and removed when the
/// firer stops.
final class HandOffJournal {
  let path: String
  private let fd: Int32

  /// The journal file of `owner` for the store at `storePath`.
  static func path(storePath: String, owner: FirerIdentity) -> String {
    "\(storePath)-handoff-\(owner.pid)-\(owner.startTime)-\(owner.bootID.prefix(8))"
  }

  /// Opens (creating, 0600) the journal of `owner`.
  init(storePath: String, owner: FirerIdentity) throws(NotifyError) {
    path = Self.path(storePath: storePath, owner: owner)
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else {
      throw NotifyError(
        .ioError,
        "cannot write the hand-off journal \(Escaper.visible(path)): \(String(cString: strerror(errno)))",
        fix: "check the permissions of the store's folder")
    }
  }

  deinit { close(fd) }

  /// Appends one hand-off.
  func append(_ handOff: HandOff) throws(NotifyError) {
    let line = Self.line(handOff)
    let written = line.withCString { write(fd, $0, strlen($0)) }
    guard written == line.utf8.count else {
      throw NotifyError(
        .ioError, "cannot write the hand-off journal: \(String(cString: strerror(errno)))",
        fix: "check the free space of the store's file system")
    }
  }

  /// Every line is recorded in the store: empties the file.
  func empty() { _ = ftruncate(fd, 0) }

  /// `rowid occurrence handedOverAtMillis` as one line.
  static func line(_ handOff: HandOff) -> String {
    "\(handOff.claim.rowID) \(handOff.claim.occurrence) \(Millis.from(handOff.delivery.deliveredAt))\n"
  }

  /// When each hand-off a journal file lists was made, keyed by (row, occurrence); empty
  /// when there is no such file. A line cut short by a crash is ignored.
  static func read(_ path: String) -> [Key: Date] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
    var entries: [Key: Date] = [:]
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: " ")
      guard fields.count == 3, let row = Int64(fields[0]), let occurrence = Int(fields[1]),
        let millis = Int64(fields[2])
      else { continue }
      entries[Key(rowID: row, occurrence: occurrence)] = Millis.date(millis)
    }
    return entries
  }

  /// A claimed occurrence's identity.
  struct Key: Hashable {
    var rowID: Int64
    var occurrence: Int
  }
}

/// The open hand-off journals of one store connection, by owner (a process has one firer
/// per store as a rule; tests have more).
final class HandOffJournals: @unchecked Sendable {
  // Safe: every access to `open` and `unrecorded` holds `lock`.
  private let lock = NSLock()
  private var open: [FirerIdentity: HandOffJournal] = [:]
  private var unrecorded: [HandOffJournal.Key: FirerIdentity] = [:]

  /// Appends `handOff` to `owner`'s journal, opening it first when needed.
  func append(_ handOff: HandOff, owner: FirerIdentity, storePath: String) throws(NotifyError) {
    lock.lock()
    defer { lock.unlock() }
    let journal: HandOffJournal
    if let existing = open[owner] {
      journal = existing
    } else {
      journal = try HandOffJournal(storePath: storePath, owner: owner)
      open[owner] = journal
    }
    try journal.append(handOff)
    unrecorded[HandOffJournal.Key(rowID: handOff.claim.rowID, occurrence: handOff.claim.occurrence)] = owner
  }

  /// These hand-offs are recorded in the store now: a journal all of whose lines are is
  /// emptied.
  func recorded(_ handOffs: [HandOff]) {
    lock.withLock {
      var owners: Set<FirerIdentity> = []
      for handOff in handOffs {
        let key = HandOffJournal.Key(rowID: handOff.claim.rowID, occurrence: handOff.claim.occurrence)
        if let owner = unrecorded.removeValue(forKey: key) { owners.insert(owner) }
      }
      for owner in owners where !unrecorded.values.contains(owner) { open[owner]?.empty() }
    }
  }

  /// Closes and removes `owner`'s journal when everything in it is recorded.
  func end(owner: FirerIdentity) {
    lock.withLock {
      guard let journal = open[owner], !unrecorded.values.contains(owner) else { return }
      open[owner] = nil
      unlink(journal.path)
    }
  }
}
