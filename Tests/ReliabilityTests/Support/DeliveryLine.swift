import Foundation
import NotifyTestSupport

extension ChildProcess {
  /// The delivery lines of the stdout sink so far (a line cut short is skipped).
  var deliveries: [DeliveryLine] { stdoutLines.compactMap { DeliveryLine($0) } }
}

/// One line of the stdout sink: which occurrence of which notification.
struct DeliveryLine: Hashable, Sendable {
  var app: String
  var id: String
  var occurrence: Int
  var late: Bool

  init?(_ line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["event"] as? String == "delivered", let app = object["app"] as? String,
      let id = object["id"] as? String, let occurrence = object["occurrence"] as? Int
    else { return nil }
    self.app = app
    self.id = id
    self.occurrence = occurrence
    self.late = object["late"] as? Bool ?? false
  }

  /// `app/id#occurrence`.
  var key: String { "\(app)/\(id)#\(occurrence)" }
}
