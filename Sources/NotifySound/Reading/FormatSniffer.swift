/// Names what a file is when it is not WAV, AIFF/AIFC or CAF, from its first bytes,
/// so the verdict can say "is an MP3 file" rather than "is not valid".
enum FormatSniffer {
  /// What the file looks like, as a problem for the verdict.
  static func identify(_ head: ByteView) -> SoundFileProblem {
    let (name, fileExtension, convertible) = guess(head)
    return .otherFormat(name: name, fileExtension: fileExtension, convertible: convertible)
  }

  private static func guess(_ head: ByteView) -> (String, String?, Bool) {
    let bytes = head.bytes
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
    }
    func starts(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

    switch head.fourCC(0) {
    case "RIFF":
      if let type = head.fourCC(8) { return ("a RIFF '\(type)' file, not RIFF/WAVE audio", nil, false) }
    case "RF64", "BW64":
      return ("an RF64 (64-bit WAV) file", "wav", true)
    case "FORM":
      if let type = head.fourCC(8) { return ("an IFF '\(type)' file, not AIFF audio", nil, type == "8SVX") }
    case "OggS":
      if starts("\u{01}vorbis", at: 28) { return ("an Ogg Vorbis file", "ogg", true) }
      if starts("OpusHead", at: 28) { return ("an Ogg Opus file", "opus", false) }
      if starts([0x7F] + Array("FLAC".utf8), at: 28) { return ("an Ogg FLAC file", "oga", true) }
      if starts("Speex", at: 28) { return ("an Ogg Speex file", "spx", false) }
      return ("an Ogg file", "ogg", true)
    case "fLaC": return ("a FLAC file", "flac", true)
    case ".snd": return ("a Sun/NeXT AU file", "au", true)
    case "MThd": return ("a MIDI file", "mid", false)
    case "wvpk": return ("a WavPack file", "wv", true)
    case "MAC ": return ("a Monkey's Audio file", "ape", false)
    case "%PDF": return ("a PDF document", "pdf", false)
    default: break
    }
    if starts("riff") && starts([0x2E, 0x91, 0xCF, 0x11], at: 4) {
      return ("a Sony Wave64 file", "w64", true)
    }
    if starts("ID3") { return ("an MP3 file", "mp3", true) }
    if starts("ftyp", at: 4) { return ("an MPEG-4 audio (M4A/AAC) file", "m4a", false) }
    if starts("#!AMR") { return ("an AMR file", "amr", true) }
    if starts([0x1A, 0x45, 0xDF, 0xA3]) { return ("a Matroska/WebM file", "mka", false) }
    if starts([0x89]) && starts("PNG", at: 1) { return ("a PNG image", "png", false) }
    if starts([0xFF, 0xD8, 0xFF]) { return ("a JPEG image", "jpg", false) }
    if starts([0x7F]) && starts("ELF", at: 1) { return ("a program (ELF)", nil, false) }
    if starts("PK") && starts([0x03, 0x04], at: 2) { return ("a ZIP archive", "zip", false) }
    if bytes.count >= 2 && bytes[0] == 0xFF {
      if bytes[1] & 0xF6 == 0xF0 { return ("an AAC (ADTS) file", "aac", false) }
      if bytes[1] & 0xE0 == 0xE0 { return ("an MP3 file", "mp3", true) }
    }
    if looksLikeText(bytes) { return ("text, not audio", nil, false) }
    return ("not a sound file notify recognises", nil, false)
  }

  /// True when the bytes are valid UTF-8 without control characters other than
  /// whitespace (the end may cut a character in two).
  static func looksLikeText(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty else { return false }
    var sample = bytes
    while let last = sample.last, last & 0xC0 == 0x80 || last >= 0xC0 { sample.removeLast() }
    guard let text = String(validating: sample, as: UTF8.self) else { return false }
    return text.unicodeScalars.allSatisfy { scalar in
      scalar.value >= 0x20 && scalar.value != 0x7F || scalar == "\n" || scalar == "\r" || scalar == "\t"
    }
  }
}
