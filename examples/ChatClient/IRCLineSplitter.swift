/// Splits text into pieces that each fit one IRC line (RFC 2812 §2.3: 512 bytes with CR LF)
/// as the server relays it to others, with its `:nick!user@host ` prefix in front: a line
/// past that is cut or, on some servers, gets the client thrown off ("Request too long").
struct IRCLineSplitter {
  /// The most a relayed line may hold, CR LF included (RFC 2812).
  static let lineLimit = 512
  /// Room left for the prefix a server adds, beyond the nick: `!`, a user name of up to 10
  /// (RFC 2812's USERLEN), `@`, a host of up to 63 (a DNS label's limit, which cloaked
  /// hosts keep to), the `:` and the space, with a margin for servers that allow more.
  static let prefixAllowance = 100

  /// The bytes of text one `command target :text` line may carry for `nick`.
  let capacity: Int

  init(command: String, target: String, nick: String) {
    let fixed = command.utf8.count + 1 + target.utf8.count + 2 + 2  // "CMD target :" + CR LF
    capacity = max(16, Self.lineLimit - Self.prefixAllowance - nick.utf8.count - fixed)
  }

  /// `text` in pieces of at most `capacity` bytes, split between characters (never inside
  /// one, so no piece holds half of a multi-byte letter or emoji), at the last space of a
  /// piece when there is one in its second half. The pieces joined with single spaces
  /// give the text back.
  func pieces(_ text: String) -> [String] {
    var pieces: [String] = []
    var rest = Substring(text)
    while rest.utf8.count > capacity {
      var end = rest.startIndex
      var bytes = 0
      for index in rest.indices {
        let size = rest[index].utf8.count
        if bytes + size > capacity { break }
        bytes += size
        end = rest.index(after: index)
      }
      if end == rest.startIndex { end = rest.index(after: end) }  // one character past the capacity
      let piece = rest[..<end]
      if let space = piece.lastIndex(of: " "),
        piece.utf8.distance(from: piece.startIndex, to: space) > capacity / 2
      {
        pieces.append(String(rest[..<space]))
        rest = rest[rest.index(after: space)...]
      } else {
        pieces.append(String(piece))
        rest = rest[end...]
      }
    }
    if !rest.isEmpty || pieces.isEmpty { pieces.append(String(rest)) }
    return pieces
  }
}
