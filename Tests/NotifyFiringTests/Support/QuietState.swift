import Foundation
import NotifyCore
import NotifyTestSupport

/// What `notify quiet --json` says of a store: whether it is quiet, and how many are held.
struct QuietState: Hashable {
  var quiet: Bool
  var held: Int

  /// Asks the built `notify` (nil when it fails or prints something else).
  static func of(_ f: FiringFixture) -> QuietState? {
    guard let result = try? notify(["quiet", "--json"], db: f.path), result.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      let quiet = object["quiet"] as? Bool, let held = object["held"] as? Int
    else { return nil }
    return QuietState(quiet: quiet, held: held)
  }
}

extension FiringFixture {
  /// The ids of history's `kind` events, oldest first (empty when history cannot be read).
  func ids(_ kind: HistoryEvent.Kind) -> [String] {
    ((try? events(kind)) ?? []).map(\.notificationID)
  }
}
