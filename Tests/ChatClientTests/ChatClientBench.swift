import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// What the end-to-end chat tests share: a fresh folder with the store, a real IRC server
/// (ngIRCd on loopback), the built `chat-client` and the notifications it printed.
struct ChatClientBench {
  let folder = TemporaryFolder(prefix: "chat-client")
  var store: String { folder.file("notify.db") }
  let channel = "#notify"
  let nick = "notifybot"

  /// Starts the server. Tests that call this are enabled only where ngircd is installed
  /// (`.needsIRCServer`): one that does not start then is a failure, not a skip.
  func startServer() throws -> IRCServer { try IRCServer(in: folder) }

  /// Starts the client (with the stdout sink unless `extra` names another) and waits
  /// until it has joined the channel.
  func startClient(
    port: UInt16, extra: [String] = [], environment: [String: String] = [:], smallStdout: Bool = false
  ) async throws -> ChildProcess {
    let sink = extra.contains("--sink") ? [] : ["--sink", "stdout"]
    let client = try ChildProcess(
      CommandRunner.product("chat-client"),
      ["--server", "127.0.0.1:\(port)", "--nick", nick, "--channel", channel] + sink + extra,
      environment: ["NOTIFY_DB": store, "NOTIFY_APP": "chat"].merging(environment) { $1 }, stdin: .pipe,
      stdout: .pipe(capacity: smallStdout ? 4096 : nil))
    let joined = await eventually(timeout: 20) {
      client.stderr.contains("joined \(channel)") || !client.isRunning
    }
    #expect(joined && client.isRunning, "the client did not join: \(client.stderr)")
    return client
  }

  /// A second user on the server, in the channel.
  func joinPeer(port: UInt16, nick: String = "SteveJ") throws -> IRCPeer {
    let peer = try IRCPeer(port: port, nick: nick)
    peer.send("JOIN \(channel)")
    _ = try peer.waitForLine(timeout: 10) { $0.contains(" 366 ") }
    return peer
  }

  /// The daemon on the same store, with the stdout sink.
  func startDaemon() throws -> ChildProcess {
    try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "stdout"], environment: ["NOTIFY_DB": store],
      stdin: .pipe)
  }

  /// The JSON objects of the notification lines, optionally only those whose body is `body`.
  func deliveries(in lines: [String], body: String? = nil) -> [[String: JSONValue]] {
    lines.compactMap { line in
      guard case .object(let members)? = try? JSONValue.parse(line) else { return nil }
      if let body, members["body"] != .string(body) { return nil }
      return members
    }
  }

  /// `object[key]` when `object` is a JSON object.
  func member(_ key: String, of object: JSONValue?) -> JSONValue? {
    guard case .object(let members)? = object else { return nil }
    return members[key]
  }
}
