import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// Who checkpoints the WAL: short processes never do as they close; the daemon
/// does as it goes idle. Read from the WAL index (`-shm`), without touching the store:
/// `mxFrame` (the last frame written, byte 16) and `nBackfill` (the frames copied into
/// the store file, byte 96), as SQLite's `wal.c` lays them out.
@Suite("Reliability: WAL checkpoints", .ownThreads)
struct CheckpointTests {
  @Test("schedules leave their frames in the WAL; a daemon copies them into the store once idle")
  func daemonCheckpointsWhenIdle() throws {
    // Given ten schedules by short processes into a new store
    let folder = TemporaryFolder(prefix: "notify-checkpoint")
    let db = folder.file("notify.db")
    for i in 0..<10 {
      #expect(
        try notify(["schedule", "--app", "ckpt", "--in", "\(3600 + i)s", "n\(i)"], db: db).status == 0)
    }
    // Then none of them checkpointed as it closed: the WAL holds frames not yet copied
    let written = try #require(Self.walIndex(db))
    #expect(written.lastFrame > 0)
    #expect(written.copied < written.lastFrame, "\(written)")
    // When a daemon starts on it and has nothing due for an hour
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon")
    defer {
      daemon.send(SIGTERM)
      _ = daemon.waitExit()
    }
    // Then it copies every frame into the store file without being asked
    #expect(
      waitUntil(timeout: 20) { Self.walIndex(db).map { $0.copied == $0.lastFrame } ?? false },
      "\(String(describing: Self.walIndex(db))) \(daemon.stderr)")
    #expect(daemon.isRunning, "\(daemon.stderr)")
  }

  @Test(
    "schedules in quick succession to a running daemon: the last one's frames are copied too, by a put-off checkpoint"
  )
  func daemonPacesCheckpoints() throws {
    // Given a daemon that has started on a store and checkpointed it
    let folder = TemporaryFolder(prefix: "notify-checkpoint")
    let db = folder.file("notify.db")
    #expect(try notify(["schedule", "--app", "ckpt", "--in", "3600s", "first"], db: db).status == 0)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon")
    defer {
      daemon.send(SIGTERM)
      _ = daemon.waitExit()
    }
    #expect(waitUntil(timeout: 20) { Self.walIndex(db).map { $0.copied == $0.lastFrame } ?? false })
    // When three schedules follow each other at once (each wakes the daemon, which goes
    // idle again: nothing is due for an hour)
    for i in 0..<3 {
      #expect(
        try notify(["schedule", "--app", "ckpt", "--in", "\(3601 + i)s", "n\(i)"], db: db).status == 0)
    }
    // Then the frames of the last are copied too, by the put-off checkpoint (no other
    // wake-up comes: nothing is due and nobody writes)
    #expect(
      waitUntil(timeout: 10) {
        Self.walIndex(db).map { $0.copied == $0.lastFrame && $0.lastFrame > 0 } ?? false
      },
      "\(String(describing: Self.walIndex(db))) \(daemon.stderr)")
    #expect(daemon.isRunning, "\(daemon.stderr)")
  }

  /// The two counters of the WAL index header, or nil when there is no `-shm`.
  static func walIndex(_ db: String) -> (lastFrame: UInt32, copied: UInt32)? {
    guard let bytes = fileBytes(db + "-shm"), bytes.count >= 100 else { return nil }
    func word(_ offset: Int) -> UInt32 {
      bytes.subdata(in: offset..<offset + 4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
    return (word(16), word(96))
  }
}
