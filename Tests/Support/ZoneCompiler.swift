import Foundation

/// `zic` and Python's zoneinfo, for zones nobody else knows.
public enum ZoneCompiler {
  /// A made-up country no other zone database knows: +01 until 2025-06-01, then +02:30,
  /// with DST (+03:30) from 2030.
  public static let atlantis = """
    Rule\tAtl\t2030\tmax\t-\tApr\tSun>=1\t2:00\t1:00\tS
    Rule\tAtl\t2030\tmax\t-\tOct\tSun>=1\t3:00\t0\t-
    Zone\tAtlantis/Capital\t1:00\t-\tATT\t2025 Jun 1
    \t\t\t2:30\tAtl\tAT%sT
    """

  public static let zic = "/usr/sbin/zic"
  public static let python = "/usr/bin/python3"

  public static let isUsable: Bool = {
    let usable =
      FileManager.default.isExecutableFile(atPath: zic)
      && FileManager.default.isExecutableFile(atPath: python)
    if !usable { print("skipping the zic tests: needs \(zic) (apt-get install libc-bin) and \(python)") }
    return usable
  }()

  /// Compiles `source` into `folder` with `zic -b BLOAT`.
  public static func compile(_ source: String, into folder: String, bloat: String, scratch: TemporaryFolder)
    throws
  {
    let file = scratch.file("zone-\(UUID().uuidString).zi")
    try (source + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let result = try CommandRunner(executable: zic).run(["-b", bloat, "-d", folder, file])
    guard result.status == 0 else { throw ZoneCompilerError("zic failed: \(result.stderr)") }
  }

  /// The RFC 3339 UTC instants of `walls` in `zone`, by zoneinfo with fold=0.
  public static func zoneinfoInstants(zone: String, tzdir: String, walls: [String]) throws -> [String] {
    let script = """
      import sys, zoneinfo
      from datetime import datetime, timezone
      zoneinfo.reset_tzpath([sys.argv[1]])
      z = zoneinfo.ZoneInfo(sys.argv[2])
      for w in sys.argv[3:]:
          print(datetime.fromisoformat(w).replace(tzinfo=z).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
      """
    let result = try CommandRunner(executable: python).run(["-c", script, tzdir, zone] + walls)
    guard result.status == 0 else { throw ZoneCompilerError("python failed: \(result.stderr)") }
    return result.stdout.split(separator: "\n").map(String.init)
  }

  /// `instant` as a wall-clock `YYYY-MM-DDTHH:MM:SS` in `zone`, by zoneinfo.
  public static func zoneinfoWallClock(zone: String, tzdir: String, instant: Date) throws -> String {
    let script = """
      import sys, zoneinfo
      from datetime import datetime, timezone
      zoneinfo.reset_tzpath([sys.argv[1]])
      print(datetime.fromtimestamp(int(sys.argv[3]), zoneinfo.ZoneInfo(sys.argv[2])).strftime("%Y-%m-%dT%H:%M:%S"))
      """
    let result = try CommandRunner(executable: python).run([
      "-c", script, tzdir, zone, String(Int(instant.timeIntervalSince1970)),
    ])
    guard result.status == 0 else { throw ZoneCompilerError("python failed: \(result.stderr)") }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

public struct ZoneCompilerError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
