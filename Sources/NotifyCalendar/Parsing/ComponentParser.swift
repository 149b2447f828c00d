/// Builds the component tree of a file from its content lines: `BEGIN:X` ... `END:X`.
///
/// Bounded: components nest at most `maxDepth` deep and a file holds at most
/// `maxComponents` components and `maxProperties` properties; past a bound the rest of
/// the file is skipped with a warning, so a hostile or runaway file costs a bounded
/// amount. A stray `END`, or one that closes the wrong component, is repaired as far as
/// it can be (an `END` matching an outer component closes the ones inside it) and warned
/// about; components still open at the end are closed.
public enum ComponentParser {
  /// How deep components nest at most (`VCALENDAR` > `VEVENT` > `VALARM` is 3).
  public static let maxDepth = 8
  /// Components per file at most.
  public static let maxComponents = 200_000
  /// Properties per file at most.
  public static let maxProperties = 2_000_000

  /// The top-level components of `bytes` (normally one `VCALENDAR`), and what was skipped.
  public static func parse(_ bytes: [UInt8]) -> (components: [CalendarComponent], warnings: [CalendarWarning])
  {
    var reader = ContentLineReader(bytes: bytes)
    var stack: [CalendarComponent] = []
    var roots: [CalendarComponent] = []
    var warnings: [CalendarWarning] = []
    var componentCount = 0
    var propertyCount = 0
    var skippingDepth = 0

    func close(_ component: CalendarComponent, end: Int) {
      var done = component
      done.byteRange = component.byteRange.lowerBound..<end
      if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].components.append(done) }
    }

    while let line = reader.next() {
      if line.name == "BEGIN" {
        let name = line.value.uppercased()
        if skippingDepth > 0 || stack.count >= maxDepth {
          if skippingDepth == 0 {
            warnings.append(
              CalendarWarning(
                line: line.line, property: "BEGIN:\(name)",
                "skipped: components nest more than \(maxDepth) deep"))
          }
          skippingDepth += 1
          continue
        }
        componentCount += 1
        guard componentCount <= maxComponents else {
          warnings.append(
            CalendarWarning(
              line: line.line, property: "BEGIN:\(name)",
              "skipped with the rest of the file: more than \(maxComponents) components"))
          break
        }
        stack.append(CalendarComponent(name: name, line: line.line, byteRange: line.byteRange))
      } else if line.name == "END" {
        let name = line.value.uppercased()
        if skippingDepth > 0 {
          skippingDepth -= 1
          continue
        }
        guard let match = stack.lastIndex(where: { $0.name == name }) else {
          warnings.append(
            CalendarWarning(line: line.line, property: "END:\(name)", "skipped: no such component is open"))
          continue
        }
        while stack.count > match + 1 {
          let open = stack.removeLast()
          warnings.append(
            CalendarWarning(
              line: open.line, property: open.name, "has no END:\(open.name) (closed at line \(line.line))"))
          close(open, end: line.byteRange.lowerBound)
        }
        close(stack.removeLast(), end: line.byteRange.upperBound)
      } else if skippingDepth == 0 {
        guard !stack.isEmpty else {
          warnings.append(
            CalendarWarning(line: line.line, property: line.name, "skipped: outside any component"))
          continue
        }
        propertyCount += 1
        guard propertyCount <= maxProperties else {
          warnings.append(
            CalendarWarning(
              line: line.line, property: line.name,
              "skipped with the rest of the file: more than \(maxProperties) properties"))
          break
        }
        stack[stack.count - 1].properties.append(line)
      }
    }
    warnings = reader.warnings + warnings
    while let open = stack.popLast() {
      warnings.append(CalendarWarning(line: open.line, property: open.name, "has no END:\(open.name)"))
      close(open, end: bytes.count)
    }
    warnings.sort { $0.line < $1.line }
    return (roots, warnings)
  }
}
