import Foundation

/// A short valid notification sound for tests that need one file: mono 16-bit PCM WAV of
/// silence (`frames` at `rate`, 0.01 s by default).
public enum TestWAV {
  public static func pcm16(frames: Int = 80, rate: UInt32 = 8000) -> Data {
    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      withUnsafeBytes(of: value.littleEndian, Array.init)
    }
    let data = UInt32(frames * 2)
    var bytes = Array("RIFF".utf8) + le(UInt32(36) + data) + Array("WAVEfmt ".utf8)
    bytes +=
      le(UInt32(16)) + le(UInt16(1)) + le(UInt16(1)) + le(rate) + le(rate * 2) + le(UInt16(2))
      + le(UInt16(16))
    bytes += Array("data".utf8) + le(data) + [UInt8](repeating: 0, count: Int(data))
    return Data(bytes)
  }
}
