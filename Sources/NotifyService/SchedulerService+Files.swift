import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore

/// `Schedule` and `Present` of requests that carry files (`attachments`, `soundFile`):
/// which requests the 64 limit keeps is decided first, from the store; only their files
/// are checked and copied, off the loop (`FileOrder` on the `FileWorker`); then the batch
/// is stored in one transaction that holds only when every request it keeps has its files
/// (another writer may have changed the app meanwhile: the missing ones are copied in
/// another round). Sounds are placed with the notifications, and taken back with them.
extension SchedulerService {
  /// How many rounds of copying a call gets before it is answered `StoreBusy`.
  static let copyRounds = 3

  /// `Schedule` of `decoded`, some of which carry files.
  func scheduleWithFiles(app: String, _ decoded: [RequestDecoder.Request]) throws(SchedulerError)
    -> CallAnswer
  {
    let wanted: Set<Int>
    do {
      wanted = try store.kept(onScheduling: decoded.map(\.checked), app: app, zones: clock.zones)
    } catch {
      throw SchedulerError.from(error, invalid: SchedulerError.invalidTrigger)
    }
    return try copying(wanted, of: decoded, app: app, have: CopiedFiles(), covered: []) {
      files, covered throws(SchedulerError) in
      try self.storing(decoded, app: app, files: files, covered: covered, round: 1)
    }
  }

  /// `Present` of `request`, which carries files: copied, then shown (or stored due now).
  func presentWithFiles(app: String, _ request: RequestDecoder.Request) throws(SchedulerError) -> CallAnswer {
    try copying([0], of: [request], app: app, have: CopiedFiles(), covered: []) {
      files, _ throws(SchedulerError) in
      let notification: CheckedNotification
      do throws(SchedulerError) {
        notification = try Self.attaching(files, to: request)
      } catch {
        files.discard()
        throw error
      }
      let placed = try Self.place(files, at: [0])
      do throws(SchedulerError) {
        let answer = try self.present(app: app, notification)
        for (_, placement) in placed { placement.finish() }
        return .reply(answer)
      } catch {
        for (_, placement) in placed.reversed() { placement.undo() }
        files.discard()
        throw error
      }
    }
  }

  /// Copies the files of the requests at `positions` (those not `covered` yet), then calls
  /// `next` on the loop with everything copied so far and the positions covered.
  private func copying(
    _ positions: Set<Int>, of decoded: [RequestDecoder.Request], app: String, have: CopiedFiles,
    covered: Set<Int>, next: @escaping (CopiedFiles, Set<Int>) throws(SchedulerError) -> CallAnswer
  ) throws(SchedulerError) -> CallAnswer {
    let items = positions.sorted().compactMap { position -> FileOrder.Item? in
      let request = decoded[position]
      var sound: (Int32, String)?
      if let descriptor = request.soundFile, case .file(let name) = request.notification.sound {
        sound = (descriptor, name)
      }
      guard !request.attachments.isEmpty || sound != nil else { return nil }
      return FileOrder.Item(
        position: position, id: request.notification.id, attachments: request.attachments, sound: sound)
    }
    let covering = covered.union(positions)
    guard !items.isEmpty else { return try next(have, covering) }
    let order = FileOrder(
      app: app, folder: store.attachmentFolder, items: items, count: decoded.count, made: have.copies)
    return .later(
      FileJob(work: { order.run() }) { result in
        switch result {
        case .failure(let error):
          // (the order left nothing of its own; an earlier round's files go too)
          have.discard()
          return .failure(error)
        case .success(let new):
          var files = have
          files.add(new)
          return Result { () throws(SchedulerError) in try next(files, covering) }
        }
      })
  }

  /// Stores the batch with the files copied for the positions `covered`; another round of
  /// copying when the store would keep one that is not covered.
  private func storing(
    _ decoded: [RequestDecoder.Request], app: String, files: CopiedFiles, covered: Set<Int>, round: Int
  ) throws(SchedulerError) -> CallAnswer {
    var checked: [CheckedNotification] = []
    do throws(SchedulerError) {
      for index in decoded.indices {
        checked.append(
          covered.contains(index) ? try Self.attaching(files, to: decoded[index]) : decoded[index].checked)
      }
    } catch {
      files.discard()
      throw error
    }
    let notifications = checked.map(\.notification)
    let ready = Set(decoded.indices.filter { covered.contains($0) || !decoded[$0].carriesFiles })
    let placed: [(Int, SoundPlacement)]
    do { placed = try Self.place(files, at: covered) } catch {
      files.discard()
      throw error
    }
    let (zones, batch) = (clock.zones, checked)
    return try transaction(requests: batch.count) {
      store throws(NotifyError) -> SQLiteStore.GuardedBatchOutcome in
      try store.schedule(batch: batch, zones: zones, ready: ready)
    } then: { result throws(SchedulerError) in
      let guarded: SQLiteStore.GuardedBatchOutcome
      do throws(NotifyError) { guarded = try result.get() } catch {
        for (_, placement) in placed.reversed() { placement.undo() }
        files.discard()
        throw SchedulerError.from(error, invalid: SchedulerError.invalidTrigger)
      }
      return try self.stored(
        guarded, decoded, app: app, files: files, covered: covered, round: round, placed: placed,
        notifications: notifications)
    }
  }

  /// What follows a batch's transaction: another round of copying when the store would keep
  /// a request whose files are not copied yet, else the files kept and the reply.
  private func stored(
    _ guarded: SQLiteStore.GuardedBatchOutcome, _ decoded: [RequestDecoder.Request], app: String,
    files: CopiedFiles, covered: Set<Int>, round: Int, placed: [(Int, SoundPlacement)],
    notifications: [LocalNotification]
  ) throws(SchedulerError) -> CallAnswer {
    switch guarded {
    case .notReady(let missing):
      for (_, placement) in placed.reversed() { placement.undo() }
      guard round < Self.copyRounds else {
        files.discard()
        throw .storeBusy(
          "the app's notifications kept changing while the call's files were copied: try again")
      }
      return try copying(missing, of: decoded, app: app, have: files, covered: covered) {
        more, covering throws(SchedulerError) in
        try self.storing(decoded, app: app, files: more, covered: covering, round: round + 1)
      }
    case .stored(let outcome):
      let keptPositions = outcome.keptPositions
      let keptFiles = Set(keptPositions.flatMap { notifications[$0].attachments.map(\.file) })
      AttachmentFolder.commit(files.copies.values.filter { keptFiles.contains($0.file) })
      AttachmentFolder.discard(files.copies.values.filter { !keptFiles.contains($0.file) })
      // A sound is installed with a notification the limit kept, and only so.
      for (position, placement) in placed.reversed() where !keptPositions.contains(position) {
        placement.undo()
        placement.staged.discard()
      }
      for (position, placement) in placed where keptPositions.contains(position) { placement.finish() }
      store.sweepAttachments()
      return .reply(try reply(to: outcome, notifications))
    }
  }

  /// The request's notification carrying the copies made of its descriptors, each under
  /// the request's own identifier for it.
  static func attaching(_ files: CopiedFiles, to request: RequestDecoder.Request) throws(SchedulerError)
    -> CheckedNotification
  {
    let copies: [NotificationAttachment] = request.attachments.compactMap { source in
      guard let descriptor = source.descriptor, var copy = files.copies[descriptor] else { return nil }
      copy.identifier = source.identifier ?? source.file
      return copy
    }
    do {
      return try request.checked.attaching(copies)
    } catch {
      throw SchedulerError.from(error)
    }
  }

  /// Places the staged sounds of `positions`, in order (a later one of the same name wins);
  /// on a failure the ones placed are taken back.
  static func place(_ files: CopiedFiles, at positions: Set<Int>) throws(SchedulerError) -> [(
    Int, SoundPlacement
  )] {
    var placed: [(Int, SoundPlacement)] = []
    for position in positions.sorted() {
      guard let sound = files.sounds[position] else { continue }
      do { placed.append((position, try sound.place())) } catch {
        for (_, placement) in placed.reversed() { placement.undo() }
        throw SchedulerError.from(error)
      }
    }
    return placed
  }
}

extension RequestDecoder.Request {
  /// True when the request sends files (attachments or a sound file).
  var carriesFiles: Bool { !attachments.isEmpty || soundFile != nil }
}
