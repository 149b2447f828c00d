/// One IRC protocol line (RFC 2812 §2.3): `[:prefix] COMMAND params... [:trailing]`.
struct IRCMessage: Hashable, Sendable {
  /// The sender, `nick!user@host` or a server name; nil for lines from the client.
  var prefix: String?
  /// The command or numeric reply, uppercased (`PRIVMSG`, `PING`, `001`).
  var command: String
  /// The parameters; a trailing parameter (after ` :`) is the last element.
  var parameters: [String]

  /// Parses a line without its CR LF; nil for an empty or malformed line. IRCv3 message
  /// tags (`@a=b `) are skipped.
  init?(line: String) {
    var rest = line[...]
    if rest.first == "@" {
      guard let space = rest.firstIndex(of: " ") else { return nil }
      rest = rest[rest.index(after: space)...].drop { $0 == " " }
    }
    if rest.first == ":" {
      guard let space = rest.firstIndex(of: " ") else { return nil }
      prefix = String(rest[rest.index(after: rest.startIndex)..<space])
      rest = rest[rest.index(after: space)...].drop { $0 == " " }
    }
    var parameters: [String] = []
    var command: String?
    while !rest.isEmpty {
      if command != nil, rest.first == ":" {
        parameters.append(String(rest.dropFirst()))
        break
      }
      let end = rest.firstIndex(of: " ") ?? rest.endIndex
      let word = String(rest[..<end])
      if command == nil { command = word.uppercased() } else { parameters.append(word) }
      rest = rest[end...].drop { $0 == " " }
    }
    guard let command, !command.isEmpty else { return nil }
    self.command = command
    self.parameters = parameters
  }

  /// A message to send.
  init(_ command: String, _ parameters: String...) {
    self.prefix = nil
    self.command = command
    self.parameters = parameters
  }

  /// The nick part of the prefix (`SteveJ` of `SteveJ!steve@host`).
  var senderNick: String? {
    guard let prefix else { return nil }
    return String(prefix.prefix { $0 != "!" && $0 != "@" })
  }

  /// The wire form, without CR LF. The last parameter is sent as trailing when it could
  /// not be sent bare. CR, LF and NUL are removed so that no text can inject a command.
  var line: String {
    var words = [command]
    for (index, parameter) in parameters.enumerated() {
      let clean = parameter.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }
      let isLast = index == parameters.count - 1
      if isLast, clean.isEmpty || clean.contains(" ") || clean.hasPrefix(":") {
        words.append(":" + clean)
      } else {
        words.append(clean)
      }
    }
    return words.joined(separator: " ")
  }
}
