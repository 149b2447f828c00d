import Foundation
import NotifyCore
import NotifyTestSupport

/// Zones for tests: TZif bytes read from the system's tz database and handed to the core's
/// parser as data (the file reading here is the test's, not the code under test's).
public final class TestZoneDatabase: ZoneDatabase, @unchecked Sendable {
  // Safe: `cache` is only touched with `lock` held.
  public let folder: String
  private let lock = NSLock()
  private var cache: [String: Zone] = [:]

  /// Zones from `folder`.
  public init(folder: String = "/usr/share/zoneinfo") { self.folder = folder }

  public func zone(named name: String) throws(ZoneError) -> Zone {
    if let zone = lock.withLock({ cache[name] }) { return zone }
    guard !name.contains(".."), !name.hasPrefix("/"),
      let data = FileManager.default.contents(atPath: folder + "/" + name)
    else { throw .unknown(name: name, folder: folder) }
    let zone = try Zone(identifier: name, tzif: [UInt8](data))
    lock.withLock { cache[name] = zone }
    return zone
  }
}

/// The tests' zone database over /usr/share/zoneinfo.
public let testZoneDatabase = TestZoneDatabase()

/// A zone that must exist in the tz database.
public func testZone(_ name: String) -> Zone {
  do {
    return try testZoneDatabase.zone(named: name)
  } catch {
    fatalError("no zone \(name): \(error)")
  }
}

/// `local` as the system zone, named zones from the tz database.
public func testZones(_ local: Zone) -> Zones {
  Zones(local: local, database: testZoneDatabase)
}
