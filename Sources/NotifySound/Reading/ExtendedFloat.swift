/// The 80-bit IEEE 754 extended-precision number AIFF uses for its sample rate:
/// 1 sign bit, a 15-bit exponent biased by 16383, and a 64-bit significand whose top
/// bit is the explicit integer bit.
enum ExtendedFloat {
  /// The value of the 10 big-endian bytes, or nil for infinities and NaNs.
  static func value(_ bytes: ArraySlice<UInt8>) -> Double? {
    guard bytes.count == 10 else { return nil }
    let b = Array(bytes)
    let signAndExponent = UInt16(b[0]) << 8 | UInt16(b[1])
    let negative = signAndExponent & 0x8000 != 0
    let exponent = Int(signAndExponent & 0x7FFF)
    var significand: UInt64 = 0
    for byte in b[2..<10] { significand = significand << 8 | UInt64(byte) }
    guard exponent != 0x7FFF else { return nil }
    if significand == 0 { return negative ? -0.0 : 0.0 }
    // value = significand × 2^(exponent − 16383 − 63); the exponent of 0 is the
    // denormal range, which uses 1 − 16383 like the IEEE formats.
    let scale = (exponent == 0 ? 1 : exponent) - 16383 - 63
    let magnitude = Double(sign: .plus, exponent: scale, significand: Double(significand))
    return negative ? -magnitude : magnitude
  }
}
