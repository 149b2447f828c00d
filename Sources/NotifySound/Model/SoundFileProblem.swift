/// Why a file could not be read as a WAV, AIFF/AIFC or CAF sound. The reader states the
/// fact; `SoundRules` turns it into a verdict a person understands.
public enum SoundFileProblem: Error, Hashable, Sendable {
  /// The file has no bytes.
  case empty
  /// The file is something else, recognised from its first bytes: `name` reads
  /// "an MP3 file", "an Ogg Vorbis file", "text", ...; `convertible` is true when
  /// `sox` can convert it.
  case otherFormat(name: String, fileExtension: String?, convertible: Bool)
  /// A header claims more audio than the file holds.
  case truncated(container: SoundContainer, claimedBytes: Int64, presentBytes: Int64)
  /// The file starts like a known container but its structure is broken.
  case damaged(container: SoundContainer?, detail: String)
  /// The file could not be read (an I/O error).
  case unreadable(String)
}
