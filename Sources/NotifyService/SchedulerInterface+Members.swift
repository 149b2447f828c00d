import Foundation
import NotifyDesktop

/// The interface's members and errors as its introspection data (`introspection`, the text
/// of `data/dbus/io.github.notify.Scheduler1.xml`) declares them: the one place the names and
/// signatures are written. The service checks calls against `methods`, and a test checks
/// every reply, signal and error against them, both ways.
extension SchedulerInterface {
  /// A method or signal of the interface: its name and its arguments' signatures.
  package struct Member: Hashable, Sendable {
    /// The member's name.
    package var name: String
    /// What a call sends (`saa{sv}`); empty for a signal.
    package var inSignature: String
    /// What a reply (or a signal) carries (`asas`).
    package var outSignature: String
  }

  /// The scheduler interface's methods, by name.
  package static let methods: [String: Member] = members("method", in: introspection)
  /// The scheduler interface's signals, by name.
  package static let signals: [String: Member] = members("signal", in: introspection)
  /// The short names of the errors the interface declares
  /// (`io.github.notify.Scheduler1.Errors` annotation: `LimitReached`, ...).
  package static let errors: [String] = {
    let pattern = #/<annotation name="io\.github\.notify\.Scheduler1\.Errors" value="([^"]*)"/>/#
    guard let match = schedulerInterfaceXML(introspection).firstMatch(of: pattern) else { return [] }
    return match.output.1.split(separator: " ").map(String.init)
  }()

  /// The `<interface name="io.github.notify.Scheduler1">` element of `xml`.
  static func schedulerInterfaceXML(_ xml: String) -> Substring {
    guard let start = xml.range(of: "<interface name=\"\(name)\">"),
      let end = xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex)
    else { return "" }
    return xml[start.upperBound..<end.lowerBound]
  }

  /// The `kind` elements (`method`, `signal`) of the scheduler's interface in `xml`.
  static func members(_ kind: String, in xml: String) -> [String: Member] {
    let interface = schedulerInterfaceXML(xml)
    var found: [String: Member] = [:]
    // <method name="X"/> or <method name="X"> ... </method>
    let element = try! Regex(#"<\#(kind) name="([A-Za-z]+)"\s*(/>|>(.*?)</\#(kind)>)"#)
      .dotMatchesNewlines()
    let argument = #/<arg ([^>]*?)/?>/#
    for match in interface.matches(of: element) {
      guard let name = match.output[1].substring.map(String.init) else { continue }
      var member = Member(name: name, inSignature: "", outSignature: "")
      for arg in (match.output[3].substring ?? "").matches(of: argument) {
        let attributes = arg.output.1
        let type = attributes.firstMatch(of: #/type="([^"]*)"/#).map { String($0.output.1) } ?? ""
        let direction =
          attributes.firstMatch(of: #/direction="([^"]*)"/#).map { String($0.output.1) } ?? "out"
        if direction == "in" { member.inSignature += type } else { member.outSignature += type }
      }
      found[name] = member
    }
    return found
  }
}
