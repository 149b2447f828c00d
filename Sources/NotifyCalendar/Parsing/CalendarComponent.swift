/// One iCalendar component (`VCALENDAR`, `VEVENT`, `VALARM`, ...) with its properties and
/// the components inside it, as written.
public struct CalendarComponent: Hashable, Sendable {
  /// The component name, upper-cased.
  public var name: String
  /// Its properties in file order.
  public var properties: [ContentLine]
  /// The components inside it, in file order.
  public var components: [CalendarComponent]
  /// The line of its `BEGIN`.
  public var line: Int
  /// Its bytes, from the `BEGIN` line's start to the end of its `END` line.
  public var byteRange: Range<Int>

  /// Creates a component.
  public init(
    name: String, properties: [ContentLine] = [], components: [CalendarComponent] = [], line: Int = 0,
    byteRange: Range<Int> = 0..<0
  ) {
    self.name = name
    self.properties = properties
    self.components = components
    self.line = line
    self.byteRange = byteRange
  }

  /// The first property called `name`.
  public func property(_ name: String) -> ContentLine? {
    properties.first { $0.name == name }
  }

  /// Every property called `name`.
  public func properties(_ name: String) -> [ContentLine] {
    properties.filter { $0.name == name }
  }

  /// The components inside this one called `name`.
  public func components(_ name: String) -> [CalendarComponent] {
    components.filter { $0.name == name }
  }
}
