import Foundation
import NotifyCore
import SystemPackage

extension SoundLibrary {
  /// Validates the sound file at `path` and copies it into `installFolder` under its own
  /// file name, replacing a sound of that name; returns the installed path.
  ///
  /// Throws `.inputMissing` (66) when the file is missing, `.soundRefused` (65) when it is
  /// not a valid sound, is larger than its format allows (`SoundRules.maximumFileSize`) or
  /// its name is not a plain file name (nothing is copied then), and exit 74 when the
  /// folder cannot be written. Folders are created 0700; the copy is checked again before
  /// it is renamed into place, so a file changed while it was copied never lands.
  public func install(file path: String) throws(NotifyError) -> String {
    let check = try SoundCheck.file(path)
    let name = FilePath(path).lastComponent?.string ?? path
    try Validator.soundName(name)
    let shown = "'\(Escaper.visible(path))'"
    if case .invalid(let reason, let fix) = check.verdict {
      throw NotifyError(.soundRefused(path), "\(shown) \(reason)", fix: fix)
    }
    var status = stat()
    let size: Int64 = stat(path, &status) == 0 ? Int64(status.st_size) : 0
    if let info = check.info, let (reason, fix) = SoundRules.sizeProblem(size, info) {
      throw NotifyError(.soundRefused(path), "\(shown) \(reason)", fix: fix)
    }
    let staged = try stage(
      name,
      changed: NotifyError(
        .soundRefused(path), "\(shown) changed while it was copied", fix: "run 'notify sound install' again")
    ) { temporary throws(NotifyError) in try Self.copy(from: path, to: temporary) }
    return try staged.place().finish()
  }

  /// `install(file:)` for an open file (`descriptor`, left open; a D-Bus caller's, which
  /// notify does not open by path), installed as `name`: the same checks, and the copy is
  /// checked again before it is renamed into place.
  public func install(descriptor: Int32, name: String) throws(NotifyError) -> String {
    try stage(descriptor: descriptor, name: name).place().finish()
  }

  /// Checks the open file `descriptor` (left open) as `install(descriptor:name:)` does and
  /// copies it into `installFolder` under a temporary name, checked again there; nothing is
  /// installed until the result is `place`d, and `discard` leaves nothing behind. The D-Bus
  /// service stages a call's sound while other calls are answered, and places it with the
  /// notification that names it, or not at all.
  public func stage(descriptor: Int32, name: String) throws(NotifyError) -> StagedSound {
    try Validator.soundName(name)
    let shown = "the sound file given for '\(Escaper.visible(name))'"
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw NotifyError(.soundRefused(name), "\(shown) is not a regular file", fix: "give an open sound file")
    }
    let size = Int64(status.st_size)
    let result = SoundFileReader.measure(DescriptorByteSource(descriptor)).result
    if case .invalid(let reason, let fix) = SoundRules.verdict(for: result) {
      throw NotifyError(.soundRefused(name), "\(shown) \(reason)", fix: fix)
    }
    if case .success(let info) = result, let (reason, fix) = SoundRules.sizeProblem(size, info) {
      throw NotifyError(.soundRefused(name), "\(shown) \(reason)", fix: fix)
    }
    return try stage(
      name,
      changed: NotifyError(.soundRefused(name), "\(shown) changed while it was copied", fix: "send it again")
    ) { temporary throws(NotifyError) in try Self.copy(descriptor: descriptor, size: size, to: temporary) }
  }

  /// Copies a checked sound (`copy` writes the new file it is given) into `installFolder`
  /// through a temporary file that is checked again, its size too (`changed` when it is no
  /// longer valid).
  private func stage(
    _ name: String, changed: NotifyError, copy: (String) throws(NotifyError) -> Void
  ) throws(NotifyError) -> StagedSound {
    try Self.makeFolders(installFolder)
    let temporary = "\(installFolder)/.\(name).\(UInt32.random(in: 0...UInt32.max)).partial"
    do throws(NotifyError) {
      try copy(temporary)
      let check = try SoundCheck.file(temporary)
      var status = stat()
      guard check.verdict.isValid, let info = check.info, stat(temporary, &status) == 0,
        SoundRules.sizeProblem(Int64(status.st_size), info) == nil
      else { throw changed }
      return StagedSound(temporary: temporary, destination: "\(installFolder)/\(name)")
    } catch {
      unlink(temporary)
      throw error
    }
  }

  /// Copies `size` bytes of what `descriptor` holds, from its start, into a new file
  /// created 0600; throws `.invalidData` when the file holds fewer or more by then.
  static func copy(descriptor: Int32, size: Int64, to destination: String) throws(NotifyError) {
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw NotifyError(
        .ioError, "cannot create '\(Escaper.visible(destination))': \(Errno(rawValue: errno))",
        fix: "check the disk space and the folder's permissions")
    }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    var offset: off_t = 0
    // (one byte past `size` tells that it grew)
    while Int64(offset) <= size {
      let wanted = Int(min(Int64(buffer.count), size + 1 - Int64(offset)))
      let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, offset) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw NotifyError(
          .soundRefused(destination), "cannot read the sound file: \(Errno(rawValue: errno))",
          fix: "give an open sound file")
      }
      if count == 0 { break }
      var written = 0
      while written < count {
        let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
        guard n > 0 else {
          throw NotifyError(
            .ioError, "cannot copy to '\(Escaper.visible(destination))': \(Errno(rawValue: errno))",
            fix: "check the disk space and the folder's permissions")
        }
        written += n
      }
      offset += off_t(count)
    }
    guard Int64(offset) == size else {
      throw NotifyError(
        .soundRefused(destination),
        "the sound file changed while it was copied (\(size) bytes when checked, \(offset) read)",
        fix: "send it again once it is written")
    }
    _ = fsync(output)
  }

  /// Creates `folder` and any missing parents with mode 0700, each new one's name synced
  /// to the disk.
  static func makeFolders(_ folder: String) throws(NotifyError) {
    var path = ""
    for component in folder.split(separator: "/") {
      let parent = path.isEmpty ? "/" : path
      path += "/\(component)"
      if mkdir(path, 0o700) == 0 {
        syncFolder(parent)
      } else if errno != EEXIST {
        throw NotifyError(
          .ioError, "cannot create '\(Escaper.visible(path))': \(Errno(rawValue: errno))",
          fix: "check that the folder's parent is writable, or set XDG_DATA_HOME")
      }
    }
    var status = stat()
    guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw NotifyError(
        .ioError, "'\(Escaper.visible(folder))' is not a folder", fix: "move the file away")
    }
  }

  /// Makes the names in `folder` durable (best effort: one that cannot be opened is one
  /// nothing was written into).
  static func syncFolder(_ folder: String) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// Copies in bounded chunks into a new file created 0600 with O_EXCL.
  static func copy(from source: String, to destination: String) throws(NotifyError) {
    func failed(_ what: String, _ error: any Error) -> NotifyError {
      NotifyError(
        .ioError, "cannot \(what): \(error)", fix: "check the disk space and the folder's permissions")
    }
    let input: FileDescriptor
    do {
      input = try FileDescriptor.open(FilePath(source), .readOnly, options: [.closeOnExec, .nonBlocking])
    } catch {
      throw NotifyError(
        .inputMissing(path: source), "cannot open '\(Escaper.visible(source))': \(error)",
        fix: "check the path")
    }
    defer { try? input.close() }
    let output: FileDescriptor
    do {
      output = try FileDescriptor.open(
        FilePath(destination), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
        permissions: [.ownerRead, .ownerWrite])
    } catch { throw failed("create '\(Escaper.visible(destination))'", error) }
    defer { try? output.close() }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    do {
      while true {
        let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
        if count == 0 { break }
        _ = try buffer.withUnsafeBytes { try output.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      }
      _ = fsync(output.rawValue)
    } catch { throw failed("copy to '\(Escaper.visible(destination))'", error) }
  }
}
