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
/// keeps the line through `kill -9`; a power cut may take it, since it is not synced (a
/// sync per hand-off would cost every delivery a disk write): the occurrences handed over
/// since the firer's last record are then handed over again after the cut, marked late.
/// A recorded delivery is never shown again, since the record is on the disk before
/// anyone can read it (`SQLiteStore.Durability.eachCommit`).
///
/// The file sits beside the store, `STORE-handoff-PID-STARTTIME-BOOT`, 0600 like every
/// file of the store; it is emptied once its lines are recorded and removed when the
/// firer stops.
///
/// A lock on one byte of it says that occurrence's hand-off is under way: the firer holds
/// it from the confirmation of a claim (or a held row) to its line, and a cancel that finds
/// it held leaves that occurrence to the firer (`HandOffProbes`). Without it a cancel
/// landing between the confirmation and the line would delete a claim about to be shown,
/// and the occurrence would be both cancelled and delivered. The locks are Linux's
/// open-file-description locks: a cancel in the firer's own process (an app's) sees them
/// too, and a dead firer's go with it.
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

  /// Takes the hand-off locks of `entries`, waiting while a canceller's transaction looks
  /// at them (`HandOffProbes`: it holds a shared lock until its commit, and never waits for
  /// these).
  func lockHandOff(_ entries: [Entry]) {
    for entry in entries { _ = Self.lock(fd, F_WRLCK, entry, wait: true) }
  }

  /// Gives every hand-off lock back.
  func unlockHandOff() {
    var whole = flock()
    whole.l_type = Int16(F_UNLCK)
    whole.l_whence = Int16(SEEK_SET)
    _ = fcntl(fd, Self.setLock, &whole)
  }

  /// `F_OFD_SETLK` and `F_OFD_SETLKW` (`<linux/fcntl.h>`, Linux 3.15): glibc names them only
  /// under `_GNU_SOURCE`, which Swift's Glibc module is built without.
  private static let setLock: Int32 = 37
  private static let setLockWait: Int32 = 38

  /// Locks (`F_RDLCK`, `F_WRLCK`) the byte standing for `entry` on `fd`; false when another
  /// open file holds a conflicting lock (only when not waiting).
  static func lock(_ fd: Int32, _ type: Int32, _ entry: Entry, wait: Bool) -> Bool {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = off_t(entry.lockByte)
    lock.l_len = 1
    while fcntl(fd, wait ? setLockWait : setLock, &lock) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// Appends one hand-off.
  func append(_ handOffs: [HandOff]) throws(NotifyError) {
    try append(line: handOffs.map(Self.line).joined())
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
    return handOffs(in: text)
  }

  /// The hand-offs `text`, a journal's contents, lists (`read`).
  static func handOffs(in text: String) -> [Key: Date] {
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
    return releases(in: text)
  }

  /// The releases `text`, a journal's contents, lists (`releases`).
  static func releases(in text: String) -> [Int64: Release] {
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
      self = .init(handOff.claim)
    }

    init(_ claim: Claim) {
      self = .claim(Key(rowID: claim.rowID, occurrence: claim.occurrence))
    }

    /// The byte of the journal whose lock says this one's hand-off is under way: a row's
    /// occurrences apart by less than 1024 get bytes of their own (only a few of a row's
    /// are ever claimed at once), held rows theirs above 2^62.
    var lockByte: Int64 {
      switch self {
      case .claim(let key): key.rowID &* 1024 &+ Int64(key.occurrence & 1023)
      case .held(let seq): (1 << 62) | seq
      }
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

  /// Appends `handOffs` to `owner`'s journal with one `write(2)`, opening it first when needed.
  func append(_ handOffs: [HandOff], owner: FirerIdentity, storePath: String) throws(NotifyError) {
    try append(handOffs.map(HandOffJournal.Entry.init), owner: owner, storePath: storePath) {
      journal throws(NotifyError) in
      try journal.append(handOffs)
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
    let journal = try opened(owner: owner, storePath: storePath)
    try write(journal)
    for entry in entries { unrecorded[entry] = owner }
  }

  /// `owner` is about to confirm and hand over `entries`: takes their hand-off locks in its
  /// journal (opening it first when needed) until `finishHandOff`.
  func beginHandOff(_ entries: [HandOffJournal.Entry], owner: FirerIdentity, storePath: String)
    throws(NotifyError)
  {
    lock.lock()
    let journal: HandOffJournal
    do {
      journal = try opened(owner: owner, storePath: storePath)
    } catch {
      lock.unlock()
      throw error
    }
    lock.unlock()
    // Outside `lock`: this may wait for a canceller's commit.
    journal.lockHandOff(entries)
  }

  /// `owner`'s hand-off is noted (or did not happen): gives its locks back.
  func finishHandOff(owner: FirerIdentity) {
    lock.withLock { open[owner] }?.unlockHandOff()
  }

  /// `owner`'s open journal, opened (created) now when needed. Holds `lock`.
  private func opened(owner: FirerIdentity, storePath: String) throws(NotifyError) -> HandOffJournal {
    if let existing = open[owner] { return existing }
    let journal = try HandOffJournal(storePath: storePath, owner: owner)
    open[owner] = journal
    return journal
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
