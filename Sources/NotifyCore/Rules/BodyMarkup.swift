/// The body markup an app may opt in to: the notification spec's subset, `<b>`,
/// `<i>`, `<u>` and `<a href="...">`, with the entities `&amp;` `&lt;` `&gt;` `&quot;`
/// `&apos;` and numeric ones. Pure: parsed once, checked, and rendered two ways: as markup
/// for a server with `body-markup` (every tag closed, every text escaped, links only to
/// `http`, `https` and `mailto`), and as plain text for every other server and for stdout.
///
/// Any other tag or attribute is refused with the fix (exit 65 at schedule time); an
/// unclosed tag is closed at the end, a closing tag that closes nothing open is dropped, and
/// tags closed out of order close what they enclose. A link to another scheme keeps its text
/// without the link.
public struct BodyMarkup: Hashable, Sendable {
  /// The tags of the subset.
  public enum Tag: String, Hashable, Sendable {
    case b, i, u, a
  }

  /// One piece of a body.
  public indirect enum Node: Hashable, Sendable {
    /// Text, unescaped.
    case text(String)
    /// A tag and what it encloses; `href` for a link whose scheme is allowed.
    case element(Tag, href: String?, [Node])
  }

  /// The body, parsed.
  public let nodes: [Node]

  /// The link schemes a link may keep.
  public static let schemes = ["http", "https", "mailto"]

  /// Parses `text` as an app wrote it.
  public init(parsing text: String) throws(NotifyError) {
    var stack: [(tag: Tag, href: String?, children: [Node])] = [(.b, nil, [])]
    var pending = ""
    func flush() {
      if !pending.isEmpty { stack[stack.count - 1].children.append(.text(pending)) }
      pending = ""
    }
    func close() {
      let top = stack.removeLast()
      stack[stack.count - 1].children.append(.element(top.tag, href: top.href, top.children))
    }
    var rest = Substring(text)
    while let first = rest.first {
      if first == "&", let (decoded, length) = Self.entity(rest) {
        pending += decoded
        rest = rest.dropFirst(length)
        continue
      }
      guard first == "<" else {
        pending.append(first)
        rest = rest.dropFirst()
        continue
      }
      guard let end = rest.firstIndex(of: ">") else {
        throw Self.refusal("a '<' that opens no tag", fix: "write it as &lt;")
      }
      let inside = rest[rest.index(after: rest.startIndex)..<end]
      rest = rest[rest.index(after: end)...]
      flush()
      if inside.hasPrefix("/") {
        guard let tag = Tag(rawValue: inside.dropFirst().trimmingWhitespace().lowercased()) else {
          throw Self.refusal("</\(inside.dropFirst())>", fix: Self.allowed)
        }
        // Close what it encloses; a closing tag of nothing open is dropped.
        guard let depth = stack.lastIndex(where: { $0.tag == tag }), depth > 0 else { continue }
        while stack.count > depth { close() }
        continue
      }
      let (tag, href) = try Self.openingTag(inside)
      stack.append((tag, href, []))
    }
    flush()
    while stack.count > 1 { close() }
    nodes = stack[0].children
  }

  /// The body for a server with `body-markup`: every tag closed, every text escaped.
  public var markup: String { Self.markup(nodes) }

  /// The body as plain text: the tags left out, a link's text kept.
  public var plain: String { Self.plain(nodes) }

  private static func markup(_ nodes: [Node]) -> String {
    nodes.map { node in
      switch node {
      case .text(let text): Escaper.markup(text)
      case .element(.a, let href?, let children):
        "<a href=\"\(Escaper.markup(href))\">\(markup(children))</a>"
      case .element(.a, nil, let children): markup(children)
      case .element(let tag, _, let children): "<\(tag.rawValue)>\(markup(children))</\(tag.rawValue)>"
      }
    }.joined()
  }

  private static func plain(_ nodes: [Node]) -> String {
    nodes.map { node in
      switch node {
      case .text(let text): text
      case .element(_, _, let children): plain(children)
      }
    }.joined()
  }

  /// `b`, `i`, `u`, or `a` with one `href` attribute (quoted with `"` or `'`); the href kept
  /// only for an allowed scheme.
  private static func openingTag(_ inside: Substring) throws(NotifyError) -> (Tag, String?) {
    let trimmed = inside.trimmingWhitespace()
    let name = trimmed.prefix { $0.isLetter }
    guard let tag = Tag(rawValue: name.lowercased()) else {
      throw refusal("<\(trimmed)>", fix: allowed)
    }
    var attributes = trimmed.dropFirst(name.count).trimmingWhitespace()
    if attributes.hasSuffix("/") { attributes = attributes.dropLast().trimmingWhitespace() }
    guard tag == .a else {
      guard attributes.isEmpty else {
        throw refusal("<\(trimmed)>", fix: "\(tag.rawValue) takes no attributes")
      }
      return (tag, nil)
    }
    guard attributes.lowercased().hasPrefix("href"),
      let equals = attributes.firstIndex(of: "="),
      attributes[..<equals].trimmingWhitespace().lowercased() == "href"
    else {
      throw refusal("<\(trimmed)>", fix: "a link takes one attribute, href=\"URL\"")
    }
    let value = attributes[attributes.index(after: equals)...].trimmingWhitespace()
    guard let quote = value.first, quote == "\"" || quote == "'", value.count >= 2, value.last == quote,
      !value.dropFirst().dropLast().contains(quote)
    else {
      throw refusal("<\(trimmed)>", fix: "quote the link: href=\"URL\"")
    }
    var href = ""
    var raw = value.dropFirst().dropLast()
    while let first = raw.first {
      if first == "&", let (decoded, length) = entity(raw) {
        href += decoded
        raw = raw.dropFirst(length)
      } else {
        href.append(first)
        raw = raw.dropFirst()
      }
    }
    let scheme = href.prefix { $0 != ":" }.lowercased()
    let kept =
      href.contains(":") && schemes.contains(scheme) && !href.unicodeScalars.contains { $0.value < 0x20 }
    return (tag, kept ? href : nil)
  }

  /// The entity at the start of `text` and its length, nil when there is none (a `&` then
  /// stands for itself).
  private static func entity(_ text: Substring) -> (String, Int)? {
    guard let semicolon = text.prefix(12).firstIndex(of: ";") else { return nil }
    let name = text[text.index(after: text.startIndex)..<semicolon]
    let length = name.count + 2
    switch name {
    case "amp": return ("&", length)
    case "lt": return ("<", length)
    case "gt": return (">", length)
    case "quot": return ("\"", length)
    case "apos": return ("'", length)
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
      guard let value, value >= 0x20 || value == 0x0A || value == 0x09, let scalar = Unicode.Scalar(value)
      else {
        return nil
      }
      return (String(Character(scalar)), length)
    }
  }

  private static let allowed = "only <b>, <i>, <u> and <a href=\"...\"> are allowed; write other '<' as &lt;"

  private static func refusal(_ what: some StringProtocol, fix: String) -> NotifyError {
    NotifyError(.invalidData, "the body's markup has \(Escaper.visible(String(what), limit: 60))", fix: fix)
  }
}

extension StringProtocol {
  fileprivate func trimmingWhitespace() -> SubSequence {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<Swift.max(start, end)]
  }
}
