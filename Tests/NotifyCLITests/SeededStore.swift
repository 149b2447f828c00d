import Foundation
import NotifyTestSupport
import Testing

/// A store that holds one notification (`keep`), for the checks that bad input is refused
/// and leaves the store byte for byte as it was (its file and its WAL, `storeBytes`).
struct SeededStore {
  let folder = TemporaryFolder()
  /// Runs the built `notify` on this store, as app `tests`.
  let notify: CommandRunner
  private let before: Data

  init() throws {
    let db = folder.file("notify.db")
    notify = CommandRunner(environment: ["NOTIFY_DB": db, "NOTIFY_APP": "tests"])
    let seeded = try notify.run(["schedule", "--in", "1h", "--id", "keep", "seed"])
    try #require(seeded.status == 0, "seeding failed: \(seeded.stderr)")
    before = try #require(storeBytes(db))
  }

  /// Whether nothing was committed to the store since it was seeded.
  var isUntouched: Bool { storeBytes(folder.file("notify.db")) == before }
}
