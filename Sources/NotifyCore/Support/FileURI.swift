/// `file://` URIs of absolute paths, as the notification spec's hints take them.
public enum FileURI {
  /// `path` as a `file://` URI: every byte but RFC 3986's unreserved ones and `/`
  /// percent-encoded.
  public static func string(_ path: String) -> String {
    var uri = "file://"
    let hex = Array("0123456789ABCDEF".unicodeScalars)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        uri.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      }
    }
    return uri
  }
}
