import Foundation

/// Runs the built `notify ARGUMENTS` to completion, the one way the tests run the command
/// line: `--db DB` appended when `db` is given, `environment` added to the test's own, from
/// `directory` when given. It runs outside any systemd unit whatever runs the tests (no
/// journal stream, no sd_notify socket), so it logs to stderr, where the tests read it.
@discardableResult
public func notify(
  _ arguments: [String], db: String? = nil, environment: [String: String] = [:], in directory: String? = nil,
  stdin: String? = nil, timeout: TimeInterval = 60
) throws -> CommandRunner.Result {
  let outsideUnits = ["JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": ""]
  let command = arguments + (db.map { ["--db", $0] } ?? [])
  guard let directory else {
    return try CommandRunner(environment: outsideUnits.merging(environment) { $1 })
      .run(command, stdin: stdin, timeout: timeout)
  }
  // posix_spawn has no portable working directory: a shell changes to it, then becomes notify.
  return try CommandRunner(executable: "/bin/sh", environment: outsideUnits.merging(environment) { $1 }).run(
    ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, CommandRunner.product("notify")] + command,
    stdin: stdin, timeout: timeout)
}

/// RFC 3339 with milliseconds, for `--at`.
public func rfc3339(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  return formatter.string(from: date)
}
