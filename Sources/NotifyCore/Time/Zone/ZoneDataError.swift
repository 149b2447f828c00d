/// Why zone data (TZif bytes or a POSIX TZ string) was refused: the reason, in words.
/// `Zone` wraps it into a `ZoneError` naming the zone.
struct ZoneDataError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }

  /// The reason an untyped throw of the parsers carries.
  static func reason(_ error: any Error) -> String {
    (error as? ZoneDataError)?.description ?? "\(error)"
  }
}
