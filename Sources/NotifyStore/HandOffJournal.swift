import Foundation
import NotifyCore

/// A firer's record of what it handed to its sink and has not yet recorded in the store:
/// one line per hand-off, appended with one `write(2)` right after the sink took it. What
/// quiet hours held and a release showed is noted the same way (`held SEQ MILLIS SUMMARY`),
/// so that the firer taking over a dead releaser's held rows records them instead of
/// showing them again.
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
    try append(line: Self.line(handOff))
  }

  /// Appends the release of held occurrences, shown at `date` (in the summary `summaryID`).
  func append(released held: [HeldNotification], at date: Date, summaryID: String?) throws(NotifyError) {
    try append(line: held.map { Self.line(released: $0.key, at: date, summaryID: summaryID) }.joined())
  }

  private func append(line: String) throws(NotifyError) {
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

  /// `held SEQ handedOverAtMillis SUMMARY` (`-` for none) as one line.
  static func line(released seq: Int64, at date: Date, summaryID: String?) -> String {
    "held \(seq) \(Millis.from(date)) \(summaryID ?? "-")\n"
  }

  /// When each hand-off a journal file lists was made, keyed by (row, occurrence); empty
  /// when there is no such file. A line cut short by a crash is ignored, and so are the
  /// lines of released held occurrences (`releases`).
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

  /// The held occurrences a journal file lists as shown by a release, keyed by the held
  /// row's key; empty when there is no such file. A line cut short by a crash is ignored.
  static func releases(_ path: String) -> [Int64: Release] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
    // Only whole lines: a summary id cut short would still parse.
    let whole = text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
    var entries: [Int64: Release] = [:]
    for line in whole.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: " ")
      guard fields.count == 4, fields[0] == "held", let seq = Int64(fields[1]), let millis = Int64(fields[2])
      else { continue }
      entries[seq] = Release(at: Millis.date(millis), summaryID: fields[3] == "-" ? nil : String(fields[3]))
    }
    return entries
  }

  /// A claimed occurrence's identity.
  struct Key: Hashable {
    var rowID: Int64
    var occurrence: Int
  }

  /// A held occurrence a release showed: when, and in which summary bubble (nil: alone).
  struct Release: Hashable {
    var at: Date
    var summaryID: String?
  }

  /// What one line is about: a claimed occurrence, or a held one (by its key).
  enum Entry: Hashable {
    case claim(Key)
    case held(Int64)

    init(_ handOff: HandOff) {
      self = .claim(Key(rowID: handOff.claim.rowID, occurrence: handOff.claim.occurrence))
    }
  }
}

/// The open hand-off journals of one store connection, by owner (a process has one firer
/// per store as a rule; tests have more).
final class HandOffJournals: @unchecked Sendable {
  // Safe: every access to `open` and `unrecorded` holds `lock`.
  private let lock = NSLock()
  private var open: [FirerIdentity: HandOffJournal] = [:]
  private var unrecorded: [HandOffJournal.Entry: FirerIdentity] = [:]

  /// Appends `handOff` to `owner`'s journal, opening it first when needed.
  func append(_ handOff: HandOff, owner: FirerIdentity, storePath: String) throws(NotifyError) {
    try append([HandOffJournal.Entry(handOff)], owner: owner, storePath: storePath) {
      journal throws(NotifyError) in
      try journal.append(handOff)
    }
  }

  /// Appends the release of `held` (shown at `date`, in the summary `summaryID`) to
  /// `owner`'s journal, opening it first when needed.
  func append(
    released held: [HeldNotification], at date: Date, summaryID: String?, owner: FirerIdentity,
    storePath: String
  ) throws(NotifyError) {
    try append(held.map { .held($0.key) }, owner: owner, storePath: storePath) {
      journal throws(NotifyError) in
      try journal.append(released: held, at: date, summaryID: summaryID)
    }
  }

  private func append(
    _ entries: [HandOffJournal.Entry], owner: FirerIdentity, storePath: String,
    _ write: (HandOffJournal) throws(NotifyError) -> Void
  ) throws(NotifyError) {
    lock.lock()
    defer { lock.unlock() }
    let journal: HandOffJournal
    if let existing = open[owner] {
      journal = existing
    } else {
      journal = try HandOffJournal(storePath: storePath, owner: owner)
      open[owner] = journal
    }
    try write(journal)
    for entry in entries { unrecorded[entry] = owner }
  }

  /// These hand-offs are recorded in the store now: a journal all of whose lines are is
  /// emptied.
  func recorded(_ handOffs: [HandOff]) {
    recorded(handOffs.map(HandOffJournal.Entry.init))
  }

  /// These released held occurrences are recorded in the store now.
  func recorded(released held: [HeldNotification]) {
    recorded(held.map { .held($0.key) })
  }

  private func recorded(_ entries: [HandOffJournal.Entry]) {
    lock.withLock {
      var owners: Set<FirerIdentity> = []
      for entry in entries {
        if let owner = unrecorded.removeValue(forKey: entry) { owners.insert(owner) }
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
