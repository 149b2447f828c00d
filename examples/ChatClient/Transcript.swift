import Foundation
import Notify
import NotifyCore

/// The client's own output on stderr: the chat as it scrolls by and status lines.
/// Stdout is left to the stdout sink, so that it stays one JSON object per line.
/// Everything that came from the network is escaped before it reaches the terminal.
enum Transcript {
  private static let lock = NSLock()

  /// A line of chat: `[#channel] <nick> text`.
  static func chat(_ place: String, _ nick: String, _ text: String) {
    write("[\(Escaper.visible(place))] <\(Escaper.visible(nick))> \(Escaper.visible(text))")
  }

  /// A status line: `chat-client: text`.
  static func status(_ text: String) {
    write("chat-client: \(text)")
  }

  /// An error with what to do about it.
  static func error(_ text: String) {
    write("chat-client: error: \(text)")
  }

  private static func write(_ line: String) {
    lock.withLock { FileHandle.standardError.write(Data((line + "\n").utf8)) }
  }
}
