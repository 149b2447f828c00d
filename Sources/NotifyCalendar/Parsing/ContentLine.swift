/// One iCalendar content line (RFC 5545 §3.1), unfolded: `NAME;PARAM=VALUE:value`.
///
/// The value is kept as written (escapes and all): what it means depends on the property
/// (`CalendarText.unescaped` for TEXT, `CalendarDateTime` for dates), and write-back copies
/// lines it does not change byte for byte (`byteRange`).
public struct ContentLine: Hashable, Sendable {
  /// The property name, upper-cased (`DTSTART`, `X-MOZ-LASTACK`).
  public var name: String
  /// The parameters in the order written, names upper-cased, values unquoted.
  public var parameters: [Parameter]
  /// The value after the first unquoted colon, unfolded.
  public var value: String
  /// The 1-based number of the physical line the content line starts on.
  public var line: Int
  /// Where the content line lies in the file's bytes, its folded continuations and line
  /// ending included.
  public var byteRange: Range<Int>

  /// One parameter: `TZID=Europe/Berlin`, `RELATED=END`.
  public struct Parameter: Hashable, Sendable {
    /// The name, upper-cased.
    public var name: String
    /// The values (a parameter may list several, comma-separated), quotes removed.
    public var values: [String]

    /// Creates a parameter.
    public init(name: String, values: [String]) {
      self.name = name
      self.values = values
    }
  }

  /// Creates a content line.
  public init(name: String, parameters: [Parameter], value: String, line: Int, byteRange: Range<Int>) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.line = line
    self.byteRange = byteRange
  }

  /// The first value of parameter `name` (upper-case), nil when it is not given.
  public func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.values.first
  }
}
