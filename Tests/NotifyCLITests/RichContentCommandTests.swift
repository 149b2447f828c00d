import Foundation
import NotifyTestSupport
import Testing

/// Subtitle, level, thread and attachments through the command line: stored,
/// shown in JSON, attachments kept as private copies and removed when nothing uses them.
@Suite("rich content: --subtitle, --level, --thread, --attach, end to end", .ownThreads)
struct RichContentCommandTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "chat"])
  }
  var kept: String { folder.file("notify.db.attachments/chat") }

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  func keptNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []).sorted()
  }

  func image(_ name: String) -> String {
    let path = folder.file(name)
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 64)
    FileManager.default.createFile(atPath: path, contents: Data(png))
    return path
  }

  @Test("schedule keeps a 0600 copy of the image, JSON shows every new field; cancel removes the copy")
  func scheduleShowCancel() throws {
    let source = image("cat.png")
    let scheduled = try notify.run([
      "schedule", "--id", "m1", "--in", "1h", "--title", "alice", "--subtitle", "#linux", "--level",
      "time-sensitive", "--thread", "irc.alice", "--attach", source, "--json", "hello",
    ])
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let item = try json(scheduled.stdout)
    #expect(item["subtitle"] as? String == "#linux")
    #expect(item["interruptionLevel"] as? String == "timeSensitive")
    #expect(item["urgency"] as? String == "normal")
    #expect(item["threadIdentifier"] as? String == "irc.alice")
    let attachment = try #require((item["attachments"] as? [[String: Any]])?.first)
    #expect(attachment["identifier"] as? String == "cat.png")
    #expect(attachment["type"] as? String == "image/png")
    let file = try #require(attachment["file"] as? String)
    #expect(file.hasPrefix(kept + "/m1."))
    #expect(fileBytes(file) == fileBytes(source))
    #expect(fileMode(file) == 0o600)
    #expect(fileMode(kept) == 0o700)
    // The original may go: the copy is what is shown
    try FileManager.default.removeItem(atPath: source)
    let shown = try json(try notify.run(["show", "m1", "--json"]).stdout)
    #expect((shown["attachments"] as? [[String: Any]])?.first?["file"] as? String == file)
    // When cancelled, the copy goes with it
    #expect(try notify.run(["cancel", "m1"]).status == 0)
    #expect(keptNames().isEmpty)
  }

  @Test("replacing a notification keeps the new copy and removes the old one")
  func replacement() throws {
    for name in ["a.png", "b.png"] {
      let result = try notify.run(["schedule", "--id", "m1", "--in", "1h", "--attach", image(name), "hi"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let item = try json(try notify.run(["show", "m1", "--json"]).stdout)
    let file = try #require((item["attachments"] as? [[String: Any]])?.first?["file"] as? String)
    #expect((item["attachments"] as? [[String: Any]])?.first?["identifier"] as? String == "b.png")
    #expect(keptNames() == [(file as NSString).lastPathComponent])
  }

  @Test("a refused attachment: exit 65 naming the file and the fix, nothing stored, nothing kept")
  func refusal() throws {
    let text = folder.file("notes.png")
    FileManager.default.createFile(atPath: text, contents: Data("not an image\n".utf8))
    let good = image("ok.png")
    let result = try notify.run(["schedule", "--in", "1h", "--attach", good, "--attach", text, "hi"])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("notes.png") && result.stderr.contains("is not a PNG, JPEG, GIF or WebP image"))
    #expect(
      try notify.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    #expect(keptNames().isEmpty)
    let conflicting = try notify.run([
      "schedule", "--in", "1h", "--urgency", "low", "--level", "critical", "hi",
    ])
    #expect(conflicting.status == 64)
    #expect(conflicting.stderr.contains("disagree"))
  }

  @Test("now with the stdout sink: the delivery line carries the kept copy and the new fields")
  func nowToStdout() throws {
    let result = try notify.run([
      "now", "--sink", "stdout", "--subtitle", "sub", "--level", "passive", "--attach", image("p.png"), "hi",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let line = try json(result.stdout)
    #expect(line["subtitle"] as? String == "sub")
    #expect(line["interruptionLevel"] as? String == "passive")
    #expect(line["urgency"] as? String == "low")
    let file = try #require((line["attachments"] as? [[String: Any]])?.first?["file"] as? String)
    #expect(FileManager.default.fileExists(atPath: file))
  }
}
