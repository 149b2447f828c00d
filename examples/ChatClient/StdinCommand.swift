import Foundation
import Notify
import NotifyCore

/// A line typed on stdin.
///
/// Reminders are only taken from stdin, never from chat messages: nobody else on the
/// network should be able to schedule notifications on this machine.
enum StdinCommand: Equatable {
  /// `/remind 10m text`: a notification in ten minutes, fired by whoever runs then.
  case remind(after: TimeInterval, text: String)
  /// `/msg NICK text`: a private message.
  case message(to: String, text: String)
  /// `/query NICK`: what is typed next goes to NICK alone; `/query` alone: to the channel.
  case query(String?)
  /// `/pending`: list scheduled reminders.
  case pending
  /// `/cancel ID`: cancel a scheduled reminder.
  case cancel(id: String)
  /// `/quit [text]`: leave the server; reminders stay with the daemon.
  case quit(String?)
  /// `/help`.
  case help
  /// Anything else: said in the current conversation (the channel, or the `/query` nick).
  case say(String)

  static let usage = """
    commands: /remind DURATION TEXT (e.g. /remind 10m stretch), /msg NICK TEXT, /query [NICK],
              /pending, /cancel ID, /quit [TEXT], /help; anything else is said in the
              conversation: the channel, or NICK after /query NICK (/query alone goes back)
    """

  /// Parses a line; throws a usage error saying what was wrong.
  init?(line: String) throws(ChatError) {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.hasPrefix("/") else {
      self = .say(trimmed)
      return
    }
    let words = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
    switch words[0].lowercased() {
    case "/remind":
      guard words.count == 3 else {
        throw ChatError(
          "usage: /remind DURATION TEXT", fix: "e.g. /remind 10m stretch (durations like 90s, 10m, 1h30m)")
      }
      do {
        self = .remind(after: try TimeParser.duration(words[1]), text: words[2])
      } catch {
        // The parser speaks of the command line's --in; here the duration is a word.
        throw ChatError("/remind: " + error.description.replacingOccurrences(of: "--in ", with: "duration "))
      }
    case "/msg":
      guard words.count == 3 else { throw ChatError("usage: /msg NICK TEXT") }
      self = .message(to: words[1], text: words[2])
    case "/query":
      guard words.count <= 2 else {
        throw ChatError("usage: /query [NICK]", fix: "one nick, or none for the channel")
      }
      guard let nick = words.dropFirst().first else {
        self = .query(nil)
        return
      }
      guard !"#&+!".contains(nick.first ?? " ") else {
        throw ChatError(
          "/query \(Escaper.visible(nick, limit: 50)) names a channel",
          fix: "give a nick, or /query alone to go back to the channel")
      }
      self = .query(nick)
    case "/pending": self = .pending
    case "/cancel":
      guard words.count == 2 else { throw ChatError("usage: /cancel ID", fix: "see the ids with /pending") }
      self = .cancel(id: words[1])
    case "/quit":
      self = .quit(words.count > 1 ? words.dropFirst().joined(separator: " ") : nil)
    case "/help": self = .help
    default:
      throw ChatError("unknown command \(Escaper.visible(words[0], limit: 20))", fix: "type /help")
    }
  }
}
