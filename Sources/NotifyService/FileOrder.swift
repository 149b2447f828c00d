import Foundation
import NotifyCore
import NotifySound
import NotifyStore

/// The files of one call to check and copy, off the service's loop (`FileWorker`): the
/// attachments and sound files of the requests the 64 limit keeps, and of no other.
/// Each descriptor is copied once, however many requests name it; the bounds
/// (`FileBounds`) are checked from the descriptors' sizes before anything is copied; a
/// refusal leaves nothing behind. Copies stay hidden and sounds staged until the call's
/// notifications are stored (`CopiedFiles`).
struct FileOrder: Sendable {
  /// One request whose files are wanted.
  struct Item: Sendable {
    /// Its position in the call (0-based).
    var position: Int
    /// Its notification id (names its copies).
    var id: String
    /// Its attachments, as descriptors.
    var attachments: [AttachmentSource]
    /// Its sound file and the name it is installed as.
    var sound: (descriptor: Int32, name: String)?
  }

  var app: String
  var folder: AttachmentFolder
  var items: [Item]
  /// How many requests the call holds (for "request 3 of 64" in messages).
  var count: Int
  /// Copies an earlier round of the same call made, by descriptor.
  var made: [Int32: NotificationAttachment] = [:]

  /// Checks, bounds and copies; what was made, or the call's error.
  func run() -> Result<CopiedFiles, SchedulerError> {
    var copied = CopiedFiles()
    do throws(SchedulerError) {
      let files = try inspect()
      try checkBounds(files)
      let token = AttachmentFolder.token()
      for (descriptor, (file, item, index)) in files.sorted(by: { $0.key < $1.key }) {
        do {
          copied.copies[descriptor] = try folder.keep(
            file, identifier: file.name, app: app, id: item.id, token: token, index: index)
        } catch {
          throw prefixed(SchedulerError.from(error), item)
        }
      }
      for item in items {
        guard let sound = item.sound else { continue }
        do {
          copied.sounds[item.position] = try SoundLibrary(app: app).stage(
            descriptor: sound.descriptor, name: sound.name)
        } catch {
          throw prefixed(SchedulerError.from(error), item)
        }
      }
      folder.synchronize(apps: [app])
      return .success(copied)
    } catch {
      copied.discard()
      return .failure(error)
    }
  }

  /// Every descriptor not copied yet, checked once: the first request naming it and its
  /// index there (which name the copy).
  private func inspect() throws(SchedulerError) -> [Int32: (AttachmentFile, Item, Int)] {
    var files: [Int32: (AttachmentFile, Item, Int)] = [:]
    for item in items {
      for (index, source) in item.attachments.enumerated() {
        guard let descriptor = source.descriptor, made[descriptor] == nil, files[descriptor] == nil else {
          continue
        }
        do {
          files[descriptor] = (
            try AttachmentFile.inspect(descriptor, name: source.file, given: .descriptor), item, index
          )
        } catch {
          throw prefixed(SchedulerError.from(error), item)
        }
      }
    }
    return files
  }

  /// Refuses the call when its files pass the call's or the app's bound.
  private func checkBounds(_ files: [Int32: (AttachmentFile, Item, Int)]) throws(SchedulerError) {
    let attachments =
      files.values.reduce(Int64(0)) { $0 + $1.0.size } + made.values.reduce(0) { $0 + $1.size }
    var sounds: Int64 = 0
    for item in items {
      var status = stat()
      if let sound = item.sound, fstat(sound.descriptor, &status) == 0 { sounds += Int64(status.st_size) }
    }
    guard attachments + sounds <= FileBounds.call else {
      throw .invalidArgs(
        "the call's files take \(attachments + sounds) bytes (attachments \(attachments), sounds \(sounds)) for the requests the limit keeps; one call may send at most \(FileBounds.call) (64 MiB), each descriptor counted once: send them in several calls"
      )
    }
    let kept = folder.bytesKept(app: app)
    let new = files.values.reduce(Int64(0)) { $0 + $1.0.size }
    guard kept + new <= FileBounds.app else {
      throw .invalidArgs(
        "app '\(app)' keeps \(kept) bytes of attachment copies, and this call's \(new) would pass its bound of \(FileBounds.app) (256 MiB): cancel or withdraw notifications that carry attachments, or attach smaller images"
      )
    }
  }

  private func prefixed(_ error: SchedulerError, _ item: Item) -> SchedulerError {
    error.prefixed(count > 1 ? "request \(item.position + 1) of \(count): " : "")
  }
}

/// What a `FileOrder` made: hidden copies by descriptor, staged sounds by request position.
struct CopiedFiles: Sendable {
  var copies: [Int32: NotificationAttachment] = [:]
  var sounds: [Int: StagedSound] = [:]

  /// `other`'s files too (a later round of the same call).
  mutating func add(_ other: CopiedFiles) {
    copies.merge(other.copies) { $1 }
    sounds.merge(other.sounds) { $1 }
  }

  /// Removes every copy and staged sound: the call was refused.
  func discard() {
    AttachmentFolder.discard(Array(copies.values))
    for sound in sounds.values { sound.discard() }
  }
}
