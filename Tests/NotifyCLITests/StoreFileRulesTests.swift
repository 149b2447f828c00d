import Foundation
import NotifyTestSupport
import Testing

/// The store is a file path and its files follow the store's rules (SPEC.md §9) every time,
/// not only when notify creates them; what is not a notify store is refused untouched.
@Suite("Store files: a path, private, notify's own", .ownThreads)
struct StoreFileRulesTests {
  let folder = TemporaryFolder()

  /// `notify ARGUMENTS` run from `directory` with `NOTIFY_DB` set to `db`.
  func notify(_ arguments: [String], db: String, in directory: String) throws -> CommandRunner.Result {
    try NotifyTestSupport.notify(arguments, environment: ["NOTIFY_DB": db], in: directory)
  }

  @Test(
    "an SQLite name or URI as the store is a file of that name, and keeps what is scheduled",
    arguments: [
      ":memory:", "file:notes.db?mode=memory", "file::memory:?cache=shared",
    ])
  func namesAreFiles(name: String) throws {
    let directory = folder.file("cwd-\(abs(name.hashValue))")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // When a notification is scheduled in a store named like that, and listed by a second process
    let scheduled = try notify(["schedule", "--in", "1h", "--id", "kept", "kept"], db: name, in: directory)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let listed = try notify(["list"], db: name, in: directory)
    // Then it was stored, in a file of that very name, 0600
    #expect(listed.stdout.contains("kept"), "\(listed.stdout)\(listed.stderr)")
    #expect(fileMode(directory + "/" + name) == 0o600)
  }

  @Test("another program's SQLite database is refused (74) and left byte for byte as it was")
  func otherProgramsDatabase() throws {
    // Given an SQLite database of another program
    let path = folder.file("photos.db")
    let made = try CommandRunner(executable: "/usr/bin/sqlite3").run([
      path,
      "CREATE TABLE photo (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photo (name) VALUES ('cat');",
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let before = fileBytes(path)
    // When notify is pointed at it, even only to list
    let listed = try notify(["list"], db: path, in: folder.path)
    // Then it is refused, names the problem and the fix, and nothing was written
    #expect(listed.status == 74)
    #expect(
      listed.stderr.contains("is an SQLite database of another program, not a notify store"),
      "\(listed.stderr)")
    #expect(fileBytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test("an existing store, its -wal and -shm, and its notify folder are made private again when opened")
  func loosePermissionsAreTightened() throws {
    // Given a store whose files and folder were opened up
    let dir = folder.file("state/notify")
    let path = dir + "/notify.db"
    #expect(try notify(["schedule", "--in", "1h", "x"], db: path, in: folder.path).status == 0)
    for file in [path, path + "-wal", path + "-shm"] {
      if !FileManager.default.fileExists(atPath: file) {
        FileManager.default.createFile(atPath: file, contents: nil)
      }
      chmod(file, 0o644)
    }
    chmod(dir, 0o755)
    // When a process opens it and keeps it open (SQLite removes -wal and -shm at the last close)
    let daemon = try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "stdout", "--db", path],
      stdout: .file(folder.file("daemon.out")), stderr: .file("/dev/null"))
    defer { daemon.terminate(timeout: 60) }
    // Then every file of the store is 0600 and its folder 0700
    #expect(
      waitUntil(timeout: 10) {
        [path, path + "-wal", path + "-shm"].allSatisfy { fileMode($0) == 0o600 } && fileMode(dir) == 0o700
      },
      "\([path, path + "-wal", path + "-shm", dir].map { fileMode($0).map { String($0, radix: 8) } ?? "-" })"
    )
  }

  @Test("a folder shared with other files keeps its mode")
  func sharedFolderIsLeftAlone() throws {
    let dir = folder.file("shared")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("mine".utf8))
    chmod(dir, 0o755)
    #expect(try notify(["schedule", "--in", "1h", "x"], db: dir + "/notify.db", in: folder.path).status == 0)
    #expect(try notify(["list"], db: dir + "/notify.db", in: folder.path).status == 0)
    #expect(fileMode(dir) == 0o755)
    #expect(fileMode(dir + "/notify.db") == 0o600)
  }

  @Test(
    "a symbolic link at the store path is refused (74), dangling or not, and nothing is created at its target"
  )
  func symbolicLinksAreRefused() throws {
    let target = folder.file("elsewhere.db")
    let link = folder.file("linked.db")
    symlink(target, link)
    let dangling = try notify(["schedule", "--in", "1h", "x"], db: link, in: folder.path)
    #expect(dangling.status == 74)
    #expect(dangling.stderr.contains("is a symbolic link"), "\(dangling.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test(
    "another user's store is refused (74)",
    .enabled(if: getuid() == 0, "needs root to give a file to another user"))
  func anotherUsersStore() throws {
    let path = folder.file("theirs.db")
    #expect(try notify(["schedule", "--in", "1h", "x"], db: path, in: folder.path).status == 0)
    chown(path, 65534, 65534)
    let listed = try notify(["list"], db: path, in: folder.path)
    #expect(listed.status == 74)
    #expect(listed.stderr.contains("belongs to another user"), "\(listed.stderr)")
  }

  @Test("a store path with terminal escapes is shown escaped in every message about it")
  func pathsAreEscaped() throws {
    // Given a folder whose name holds an escape sequence, where the store file should be
    let path = folder.file("\u{1b}[31mred.db")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    // When notify is pointed at it
    let listed = try notify(["list"], db: path, in: folder.path)
    // Then the error names the path without the raw escape byte
    #expect(listed.status == 74)
    #expect(listed.stderr.contains("red.db"), "\(listed.stderr)")
    #expect(!listed.stderr.unicodeScalars.contains("\u{1b}"), "\(listed.stderr.debugDescription)")
  }
}
