/// What one iCalendar file holds for notify: its events and to-dos, the VTIMEZONEs it
/// defines, and what was skipped on the way.
public struct CalendarDocument: Sendable {
  /// The VEVENTs and VTODOs, in file order.
  public var items: [CalendarItem]
  /// The file's VTIMEZONE components by TZID.
  public var timeZones: [String: CalendarComponent]
  /// What was skipped, each naming its line and property.
  public var warnings: [CalendarWarning]

  /// Creates a document.
  public init(
    items: [CalendarItem] = [], timeZones: [String: CalendarComponent] = [:], warnings: [CalendarWarning] = []
  ) {
    self.items = items
    self.timeZones = timeZones
    self.warnings = warnings
  }

  /// Reads a file's bytes. Never fails: what cannot be read is skipped with a warning.
  public init(bytes: [UInt8]) {
    let (roots, parseWarnings) = ComponentParser.parse(bytes)
    var reader = ItemReader()
    var timeZones: [String: CalendarComponent] = [:]
    var items: [CalendarItem] = []
    func visit(_ component: CalendarComponent) {
      switch component.name {
      case "VCALENDAR":
        for child in component.components { visit(child) }
      case "VEVENT", "VTODO":
        if let item = reader.item(from: component) { items.append(item) }
      case "VTIMEZONE":
        if let tzid = component.property("TZID")?.value, !tzid.isEmpty { timeZones[tzid] = component }
      default: break
      }
    }
    for root in roots { visit(root) }
    if roots.isEmpty && parseWarnings.isEmpty && !bytes.isEmpty {
      reader.warnings.append(
        CalendarWarning(line: 0, property: "", "skipped: not an iCalendar file (no BEGIN:VCALENDAR)"))
    }
    self.init(
      items: items, timeZones: timeZones,
      warnings: (parseWarnings + reader.warnings).sorted { $0.line < $1.line })
  }
}
