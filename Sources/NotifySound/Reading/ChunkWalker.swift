/// One chunk of a RIFF, IFF or CAF file: its id and where its body lies.
struct Chunk {
  /// The four-character id, e.g. `fmt `, `SSND`, `desc`.
  let id: String
  /// Offset of the chunk body.
  let body: Int64
  /// Body size as declared by the header (CAF's -1 already replaced by "to the end").
  let size: Int64
  /// Bytes of the body that the file really holds.
  let present: Int64

  /// True when the header claims more bytes than the file holds.
  var overruns: Bool { size > present }
}

/// Walks the chunk list of a container, bounded in count and safe against sizes that
/// point anywhere. Chunk layouts differ only in the width and byte order of the size
/// field and in padding to an even length.
struct ChunkWalker {
  enum Layout {
    /// RIFF: 32-bit little-endian size, bodies padded to even length.
    case riff
    /// IFF (AIFF): 32-bit big-endian size, bodies padded to even length.
    case iff
    /// CAF: 64-bit big-endian signed size, no padding, -1 means "to the end".
    case caf

    var headerSize: Int { self == .caf ? 12 : 8 }
  }

  let source: MeteredSource
  let layout: Layout
  let container: SoundContainer

  /// Calls `visit` for each chunk from `start` until the end of the file, a chunk that
  /// runs past the end (visited, then the walk stops), an id that is not printable
  /// ASCII (trailing padding or garbage ends the walk), or `visit` returning false.
  /// Returns false when it gave up after `SoundFileReader.maxChunks` chunks.
  @discardableResult
  func walk(from start: Int64, _ visit: (Chunk) throws(SoundFileProblem) -> Bool) throws(SoundFileProblem)
    -> Bool
  {
    let fileSize = source.size
    var offset = start
    var count = 0
    while offset <= fileSize - Int64(layout.headerSize) {
      count += 1
      guard count <= SoundFileReader.maxChunks else { return false }
      let header = try source.read(at: offset, count: layout.headerSize)
      guard let idBytes = header.slice(0, 4), idBytes.allSatisfy({ (0x20...0x7E).contains($0) }),
        let id = header.fourCC(0)
      else { return true }
      let body = offset + Int64(layout.headerSize)
      let available = fileSize - body
      let size: Int64
      switch layout {
      case .riff: size = Int64(header.uint32LE(4) ?? 0)
      case .iff: size = Int64(header.uint32BE(4) ?? 0)
      case .caf:
        let raw = Int64(bitPattern: header.uint64BE(4) ?? 0)
        if raw == -1 && id == "data" {
          size = available
        } else if raw < 0 {
          throw .damaged(container: container, detail: "its '\(id)' chunk has a negative size")
        } else {
          size = raw
        }
      }
      let chunk = Chunk(id: id, body: body, size: size, present: min(size, available))
      guard try visit(chunk), !chunk.overruns else { return true }
      // Sizes are at most the bytes available here, so this cannot overflow.
      let padded = layout == .caf ? size : size + (size & 1)
      offset = body + padded
    }
    return true
  }

  /// The problem to report when a walk gave up before finding what it needed.
  var tooManyChunks: SoundFileProblem {
    .damaged(container: container, detail: "it has more than \(SoundFileReader.maxChunks) chunks")
  }
}
