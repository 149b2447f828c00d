/// The notification id of an alarm instant: the same for the same calendar, UID,
/// RECURRENCE-ID and alarm on every rescan, so that a rescan replaces or leaves alone
/// what it scheduled before instead of scheduling it twice.
///
/// `cal-` and 32 hex digits: two 64-bit FNV-1a hashes (different offsets) of the four
/// parts, each length-prefixed so that no two different tuples make the same input. Not
/// a cryptographic hash: the parts come from the user's own files.
public enum AlarmIdentity {
  /// The prefix every calendar alarm's id starts with.
  public static let prefix = "cal-"

  /// The id of `instant`'s alarm occurrence in calendar `calendar`. REPEAT repetitions
  /// share it: notify shows them as re-alerts of one notification.
  public static func id(calendar: String, instant: AlarmInstant) -> String {
    id(calendar: calendar, uid: instant.uid, recurrenceID: instant.recurrenceID, alarmKey: instant.alarmKey)
  }

  /// The id from its parts.
  public static func id(calendar: String, uid: String, recurrenceID: String?, alarmKey: String) -> String {
    var bytes: [UInt8] = []
    for part in [calendar, uid, recurrenceID ?? "", alarmKey] {
      let utf8 = Array(part.utf8)
      bytes += Array(String(utf8.count).utf8) + [0x3A] + utf8
    }
    return prefix + hex(fnv(bytes, offset: 0xcbf2_9ce4_8422_2325))
      + hex(fnv(bytes, offset: 0x6c62_272e_07bb_0142))
  }

  static func fnv(_ bytes: [UInt8], offset: UInt64) -> UInt64 {
    var hash = offset
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
