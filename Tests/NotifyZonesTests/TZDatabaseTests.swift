import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyZones

@Suite("TZDatabase and SystemZone: reading zones from a folder and the system zone")
struct TZDatabaseTests {
  let folder = TemporaryFolder(prefix: "notify-tzdb")

  /// A scratch zone folder with Europe/Berlin copied in and a file that is not TZif.
  func scratch() throws -> TZDatabase {
    let root = folder.file("zoneinfo")
    try FileManager.default.createDirectory(atPath: root + "/Europe", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: root + "/Europe/Berlin")
    try Data("not a zone".utf8).write(to: URL(fileURLWithPath: root + "/Broken"))
    return TZDatabase(folder: root + "/")
  }

  @Test("a name in the folder is read and cached; the folder loses its trailing slash")
  func reads() throws {
    let database = try scratch()
    #expect(database.folder == folder.file("zoneinfo"))
    let berlin = try database.zone(named: "Europe/Berlin")
    #expect(berlin.utcOffset(at: 1_782_907_200) == 7200)
    #expect(database.filesInUse.contains { $0.hasSuffix("/Europe/Berlin") })
  }

  @Test(
    "names that are not zone names are refused before any file is opened",
    arguments: [
      "", "/etc/passwd", "../etc/passwd", "Europe/../Europe/Berlin", "./Europe/Berlin", "Europe//Berlin",
      "Europe/Berlin\n",
    ])
  func refusesNames(_ name: String) throws {
    let database = try scratch()
    let error = #expect(throws: ZoneError.self) { try database.zone(named: name) }
    guard case .invalidName = error else {
      Issue.record("\(name.debugDescription): \(String(describing: error))")
      return
    }
  }

  @Test("an unknown name says which folder was searched; a file that is not TZif says so")
  func unknownAndMalformed() throws {
    let database = try scratch()
    let unknown = #expect(throws: ZoneError.self) { try database.zone(named: "Asia/Tokyo") }
    #expect(unknown?.description.contains(database.folder) == true)
    #expect(unknown?.fix.contains("TZDIR") == true)
    let folderName = #expect(throws: ZoneError.self) { try database.zone(named: "Europe") }
    #expect(folderName == .unknown(name: "Europe", folder: database.folder))
    let broken = #expect(throws: ZoneError.self) { try database.zone(named: "Broken") }
    #expect(broken?.description.contains("not a valid TZif file") == true)
  }

  @Test("/etc/localtime: a link names the zone, a copied file is 'localtime', none is UTC")
  func localtime() throws {
    let database = try scratch()
    let link = folder.file("localtime-link")
    try FileManager.default.createSymbolicLink(
      atPath: link,
      withDestinationPath: "../usr/share/zoneinfo/Europe/Berlin".replacingOccurrences(
        of: "../usr/share/zoneinfo", with: database.folder))
    #expect(
      SystemZone.read(database: database, environment: .some(nil), localtime: link).identifier
        == "Europe/Berlin")
    let copy = folder.file("localtime-copy")
    try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: copy)
    let copied = SystemZone.read(database: database, environment: .some(nil), localtime: copy)
    #expect(copied.identifier == "localtime" && copied.utcOffset(at: 0) == 32400)
    let missing = SystemZone.read(database: database, environment: .some(nil), localtime: folder.file("none"))
    #expect(missing == .utc)
  }

  @Test("TZ: a name, :name, a path, a POSIX string, empty (UTC), nonsense (UTC)")
  func tzForms() throws {
    let database = try scratch()
    func read(_ tz: String) -> Zone { SystemZone.read(database: database, environment: .some(tz)) }
    #expect(read("Europe/Berlin").identifier == "Europe/Berlin")
    #expect(read(":Europe/Berlin").identifier == "Europe/Berlin")
    #expect(read(database.folder + "/Europe/Berlin").identifier == "Europe/Berlin")
    #expect(read("/usr/share/zoneinfo/Asia/Tokyo").utcOffset(at: 0) == 32400)
    #expect(read("<+0530>-5:30").utcOffset(at: 0) == 19800)
    #expect(read(":<+0530>-5:30") == .utc)
    #expect(read("") == .utc)
    #expect(read("Not a zone") == .utc)
  }
}
