import Foundation
import Notify
import NotifyTestSupport
import Testing

/// What the end-to-end chat tests share: a fresh folder with the store, a real IRC server
/// (ngIRCd on loopback), the built `chat-client` and the notifications it printed.
struct ChatClientBench {
  let folder = TemporaryFolder(prefix: "chat-client")
  var store: String { folder.file("notify.db") }
  let channel = "#notify"
  let nick = "notifybot"

  /// Starts the server, or cancels the test with the reason it cannot run here.
  func startServer() throws -> IRCServer {
    if let reason = IRCServer.unavailableReason {
      print("ChatClientTests skipped: \(reason)")
      try Test.cancel(Comment(rawValue: reason))
    }
    do {
      return try IRCServer(in: folder)
    } catch {
      print("ChatClientTests skipped: ngircd cannot start: \(error)")
      try Test.cancel(Comment(rawValue: "ngircd cannot start: \(error)"))
    }
  }

  /// Starts the client (with the stdout sink unless `extra` names another) and waits
  /// until it has joined the channel.
  func startClient(
    port: UInt16, extra: [String] = [], environment: [String: String] = [:], smallStdout: Bool = false
  ) async throws -> RunningProcess {
    let sink = extra.contains("--sink") ? [] : ["--sink", "stdout"]
    let client = try RunningProcess(
      CommandRunner.product("chat-client"),
      ["--server", "127.0.0.1:\(port)", "--nick", nick, "--channel", channel] + sink + extra,
      environment: ["NOTIFY_DB": store, "NOTIFY_APP": "chat"].merging(environment) { $1 },
      smallStdout: smallStdout)
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
  func startDaemon() throws -> RunningProcess {
    try RunningProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "stdout"], environment: ["NOTIFY_DB": store])
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
