/// A desktop file id ("org.example.Chat", the file name without ".desktop").
///
/// Only a plain file-name stem is accepted, so that an id taken from a notification or a
/// command line can name a file in an `applications` folder and nothing outside it.
///
/// ```swift
/// let id = DesktopFileID("org.example.Chat-App")!
/// id.fileName    // "org.example.Chat-App.desktop"
/// id.busName     // "org.example.Chat-App"
/// id.objectPath  // "/org/example/Chat_App"
/// DesktopFileID("../etc/passwd")  // nil
/// ```
public struct DesktopFileID: Hashable, Sendable, CustomStringConvertible {
  private let stem: String

  /// The id, or nil unless `name` is a plain file-name stem: one or more of `[A-Za-z0-9_.-]`,
  /// not starting with `.` (so neither `.` nor `..`, nor a hidden file), at most 255 bytes.
  public init?(_ name: String) {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= 255, bytes.first != UInt8(ascii: "."),
      bytes.allSatisfy({ Self.isWordByte($0) || $0 == UInt8(ascii: ".") })
    else { return nil }
    stem = name
  }

  /// The file name: the id and ".desktop".
  public var fileName: String { stem + ".desktop" }

  /// The id itself.
  public var description: String { stem }

  /// The D-Bus well-known name a `DBusActivatable` app owns: the id itself, when it is a valid
  /// bus name (the spec requires it to be one), nil when it is not.
  ///
  /// A valid name has at least two elements separated by `.`, none empty, none starting with a
  /// digit, each of `[A-Za-z0-9_-]`, and at most 255 bytes in all (the last two hold already).
  public var busName: String? {
    let elements = stem.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard elements.count >= 2,
      elements.allSatisfy({ element in
        guard let first = element.first else { return false }
        return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
      })
    else { return nil }
    return stem
  }

  /// The object path where a `DBusActivatable` app serves `org.freedesktop.Application`: "/"
  /// then the bus name with each "." made "/" and each "-" made "_"; nil when `busName` is.
  public var objectPath: String? {
    busName.map { name in
      "/" + String(name.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }
  }

  /// `[A-Za-z0-9_-]`: what a bus name element may hold.
  private static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default: false
    }
  }
}
