import NotifyCore

/// Reads what a sound file holds from its own bytes (never its name): container,
/// encoding, channels, rate, bits and the frames actually present.
///
/// Safe on hostile input: every read is a bounded `pread` through a metered source
/// (at most `readBudget` bytes per file, whatever its size), chunk walks stop after
/// `maxChunks` chunks, sizes are checked before any arithmetic that could overflow,
/// and a header that claims more audio than the file holds is reported as truncated.
///
/// ```swift
/// let info = try SoundFileReader.read(path: "ping.wav").get()
/// print(info.duration)  // Optional(0.5)
/// ```
public enum SoundFileReader {
  /// Most chunks walked in one file before giving up as damaged.
  public static let maxChunks = 512
  /// Most bytes read from one file, whatever its size.
  public static let readBudget = 64 * 1024
  /// Bytes read from the start of the file to recognise it.
  static let headLength = 512
  /// Most bytes of one header chunk (`fmt `, `COMM`, `desc`) that are read.
  static let maxHeaderChunk = 64
  /// Largest channel count taken as plausible.
  static let maxChannels = 1024
  /// Sample rates taken as plausible, in Hz.
  static let plausibleRates: ClosedRange<Double> = 1...1_000_000

  /// Opens `path` and reads it; throws `.noInput` (exit 66) when the file is missing
  /// or unreadable, and returns the reader's finding otherwise.
  public static func read(path: String) throws(NotifyError) -> Result<SoundFileInfo, SoundFileProblem> {
    let source = try FileByteSource(path: path)
    return measure(source).result
  }

  /// Reads a sound from `source`.
  public static func read(_ source: any ByteSource) throws(SoundFileProblem) -> SoundFileInfo {
    try measure(source).result.get()
  }

  /// Reads a sound and reports how many bytes that took (never more than `readBudget`).
  public static func measure(_ source: any ByteSource) -> (
    result: Result<SoundFileInfo, SoundFileProblem>, bytesRead: Int
  ) {
    let metered = MeteredSource(source, budget: readBudget)
    do throws(SoundFileProblem) {
      let info = try read(metered)
      return (.success(info), metered.bytesRead)
    } catch {
      return (.failure(error), metered.bytesRead)
    }
  }

  private static func read(_ source: MeteredSource) throws(SoundFileProblem) -> SoundFileInfo {
    guard source.size > 0 else { throw .empty }
    let head = try source.read(at: 0, count: headLength)
    switch (head.fourCC(0), head.fourCC(8)) {
    case ("RIFF", "WAVE"):
      return try WAVReader(source: source).read()
    case ("FORM", "AIFF"):
      return try AIFFReader(source: source, container: .aiff).read()
    case ("FORM", "AIFC"):
      return try AIFFReader(source: source, container: .aifc).read()
    case ("caff", _):
      return try CAFReader(source: source, head: head).read()
    default:
      throw FormatSniffer.identify(head)
    }
  }

  /// Checks the numbers every container shares.
  static func checkPlausible(
    container: SoundContainer, channels: Int, sampleRate: Double
  ) throws(SoundFileProblem) {
    guard (1...maxChannels).contains(channels) else {
      throw .damaged(container: container, detail: "it claims \(channels) channels")
    }
    guard sampleRate.isFinite, plausibleRates.contains(sampleRate) else {
      throw .damaged(
        container: container, detail: "its sample rate \(sampleRate) Hz is not plausible")
    }
  }
}
