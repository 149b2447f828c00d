import Foundation
import NotifyTestSupport
import Testing

@testable import NotifySound

/// Thousands of mutated headers: the reader must not crash, must finish, and must stay
/// within its read budget whatever the bytes say.
@Suite(.ownThreads)
struct SoundFileReaderFuzzTests {
  typealias B = SoundBytes

  /// Valid files of every container and encoding, to mutate.
  static let seeds: [[UInt8]] = [
    B.pcmWAV(frames: 64, channels: 2),
    B.wav([
      B.riffChunk(
        "fmt ",
        B.wavFormat(
          tag: 0xFFFE, channels: 2, rate: 44100, bits: 24, blockAlign: 6,
          extra: B.extensible(validBits: 24, subformat: 1))),
      B.riffChunk("fact", B.le32(10)), B.riffChunk("data", [UInt8](repeating: 1, count: 60)),
    ]),
    B.wav([
      B.riffChunk(
        "fmt ", B.wavFormat(tag: 0x11, channels: 1, rate: 8000, bits: 4, blockAlign: 36, extra: B.le16(65))),
      B.riffChunk("fact", B.le32(130)), B.riffChunk("data", [UInt8](repeating: 0, count: 72)),
    ]),
    B.aiff(frames: 32, channels: 2, bits: 16, rate: 22050),
    B.aiff(frames: 128, channels: 1, compression: "ima4", audioBytes: 68),
    B.aiff(frames: 40, channels: 1, compression: "ulaw", bytesPerFrame: 1),
    B.caf(
      formatID: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16,
      audio: [UInt8](repeating: 0, count: 40)),
    B.caf(
      formatID: "ima4", bytesPerPacket: 34, framesPerPacket: 64, channels: 1, bits: 0,
      audio: [UInt8](repeating: 0, count: 68), dataSizeUnknown: true),
  ]

  /// Sizes that break naive arithmetic.
  static let nastySizes: [UInt64] = [
    0, 1, 3, 0x7F, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF,
  ]

  static func mutate(_ seed: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
    var bytes = seed
    for _ in 0..<Int.random(in: 1...4, using: &rng) {
      guard !bytes.isEmpty else { break }
      switch Int.random(in: 0..<6, using: &rng) {
      case 0:  // flip bits in the header region
        let index = Int.random(in: 0..<min(bytes.count, 96), using: &rng)
        bytes[index] ^= UInt8.random(in: 1...255, using: &rng)
      case 1:  // cut the file anywhere
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
      case 2:  // write a nasty size, 4 or 8 bytes, either byte order
        let value = nastySizes.randomElement(using: &rng)!
        let width = Bool.random(using: &rng) ? 4 : 8
        let index = Int.random(in: 0..<bytes.count, using: &rng)
        let big = Bool.random(using: &rng)
        for k in 0..<width where index + k < bytes.count {
          let shift = UInt64(8 * (big ? width - 1 - k : k))
          bytes[index + k] = UInt8(truncatingIfNeeded: value >> shift)
        }
      case 3:  // insert random bytes (misaligns every later chunk)
        let index = Int.random(in: 0...bytes.count, using: &rng)
        let junk = (0..<Int.random(in: 1...9, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
        }
        bytes.insert(contentsOf: junk, at: index)
      case 4:  // duplicate a region (repeated chunks)
        let start = Int.random(in: 0..<bytes.count, using: &rng)
        let end = min(bytes.count, start + Int.random(in: 1...48, using: &rng))
        bytes.insert(contentsOf: bytes[start..<end], at: end)
      default:  // overwrite a chunk id with another known one
        let ids = ["fmt ", "data", "fact", "COMM", "SSND", "desc", "data", "pakt", "RIFF", "FORM"]
        let id = Array(ids.randomElement(using: &rng)!.utf8)
        let index = Int.random(in: 0..<bytes.count, using: &rng)
        for k in 0..<4 where index + k < bytes.count { bytes[index + k] = id[k] }
      }
    }
    return bytes
  }

  @Test("20000 mutated headers: no crash, no hang, bounded reads", .timeLimit(.minutes(1)))
  func fuzz() {
    // Given a seeded generator and valid seed files of each container
    var rng = SeededGenerator(seed: 0x5EED_0F_50_0D)
    var outcomes = [String: Int]()

    for iteration in 0..<20_000 {
      // When a mutated file is read
      let seed = Self.seeds[iteration % Self.seeds.count]
      let bytes = Self.mutate(seed, &rng)
      let (result, bytesRead) = SoundFileReader.measure(MemoryByteSource(bytes))

      // Then the read stayed within budget, and what it reports is sane
      #expect(bytesRead <= SoundFileReader.readBudget, "iteration \(iteration)")
      switch result {
      case .success(let info):
        #expect(info.channels >= 1 && info.channels <= 1024, "iteration \(iteration)")
        #expect(info.sampleRate >= 1 && info.sampleRate <= 1_000_000, "iteration \(iteration)")
        if let frames = info.frames { #expect(frames >= 0, "iteration \(iteration)") }
        if let duration = info.duration {
          #expect(duration.isFinite && duration >= 0, "iteration \(iteration)")
        }
        outcomes[SoundRules.verdict(for: info).isValid ? "valid" : "invalid sound", default: 0] += 1
      case .failure(let problem):
        #expect(SoundRules.verdict(for: problem).reason?.isEmpty == false)
        outcomes["\(problem)".prefix(while: { $0 != "(" }).description, default: 0] += 1
      }
    }
    // And the mutations reached both readable and refused files
    print("fuzz outcomes: \(outcomes.sorted { $0.key < $1.key })")
    #expect(outcomes["valid", default: 0] > 0)
    #expect(outcomes["truncated", default: 0] > 0)
    #expect(outcomes["damaged", default: 0] > 0)
  }
}
