import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Under systemd the stdout sink's stdout is the journal (`JOURNAL_STREAM` names it): it
/// writes no content there, only the firer's log line says what was delivered.
@Suite("stdout that is the journal gets no private content", .ownThreads)
struct JournalPrivacyTests {
  @Test("fire-due --sink stdout into the journal's stream: no title, body or userInfo; history keeps them")
  func journalStreamGetsNoContent() throws {
    // Given a due notification with private content
    let f = try FiringFixture()
    try f.schedule("secret", at: Date() - 1, body: "the private body")
    let out = f.folder.file("journal-stream")
    // When fire-due runs with stdout on a stream that JOURNAL_STREAM names
    let run = try CommandRunner(executable: "/bin/sh").run([
      "-c",
      ": >\"$1\"; JOURNAL_STREAM=$(stat -c %d:%i \"$1\") exec \"$0\" fire-due --sink stdout --db \"$2\" >\"$1\"",
      CommandRunner.product("notify"), out, f.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    // Then the stream got nothing of it, the log line names id and app, and history has all
    let written = String(decoding: fileBytes(out) ?? Data(), as: UTF8.self)
    #expect(!written.contains("private body") && !written.contains("title secret"), "\(written)")
    #expect(run.stderr.contains("delivered"), "\(run.stderr)")
    let delivered = try #require(try f.events(.delivered).first)
    #expect(delivered.detail["body"] == .string("the private body"))
    #expect(
      delivered.detail["note"]
        == .string("stdout is the journal: only the log line (id and app) was written there, not the content")
    )
  }

  @Test("the same run with stdout on a plain file: the JSON line with its content")
  func plainStdoutGetsContent() throws {
    let f = try FiringFixture()
    try f.schedule("open", at: Date() - 1, body: "an open body")
    let out = f.folder.file("plain")
    let run = try CommandRunner(executable: "/bin/sh").run([
      "-c", "exec \"$0\" fire-due --sink stdout --db \"$2\" >\"$1\"", CommandRunner.product("notify"), out,
      f.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(String(decoding: fileBytes(out) ?? Data(), as: UTF8.self).contains("an open body"))
    #expect(try f.events(.delivered).first?.detail["note"] == nil)
  }
}
