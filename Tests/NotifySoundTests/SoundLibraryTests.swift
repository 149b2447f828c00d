import Foundation
import NotifyCore
import Testing

@testable import NotifySound

/// The app's sound folders: XDG order, name rules, links, install and list.
struct SoundLibraryTests {
  /// A sandbox with a user data home and two system data dirs.
  final class Sandbox {
    let root = TemporaryDirectory("notify-sound-library")
    var home: String { root.file("home") }
    var dataA: String { root.file("a") }
    var dataB: String { root.file("b") }
    var environment: [String: String] {
      ["HOME": root.file("user"), "XDG_DATA_HOME": home, "XDG_DATA_DIRS": "\(dataA):\(dataB)"]
    }

    func library(_ app: String = "chat") throws -> SoundLibrary {
      try SoundLibrary(app: app, environment: environment)
    }

    /// Writes a valid short WAV into `base/notify/sounds/app/name`.
    @discardableResult
    func sound(_ name: String, in base: String, app: String = "chat", frames: Int = 800) -> String {
      root.write(
        String("\(base)/notify/sounds/\(app)/\(name)".dropFirst(root.path.count + 1)),
        SoundBytes.pcmWAV(frames: frames))
    }
  }

  // MARK: Folders

  struct FolderCase: CustomTestStringConvertible, Sendable {
    let name: String
    let environment: [String: String]
    let folders: [String]
    var testDescription: String { name }
  }

  @Test(
    "folders follow the XDG base directories",
    arguments: [
      FolderCase(
        name: "both set", environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/x:/y/"],
        folders: ["/d/notify/sounds/app", "/x/notify/sounds/app", "/y/notify/sounds/app"]),
      FolderCase(
        name: "defaults", environment: ["HOME": "/home/u"],
        folders: [
          "/home/u/.local/share/notify/sounds/app", "/usr/local/share/notify/sounds/app",
          "/usr/share/notify/sounds/app",
        ]),
      FolderCase(
        name: "relative and empty entries are ignored",
        environment: ["HOME": "/h", "XDG_DATA_HOME": "rel", "XDG_DATA_DIRS": "::rel:/x"],
        folders: ["/h/.local/share/notify/sounds/app", "/x/notify/sounds/app"]),
      FolderCase(
        name: "duplicates are looked in once",
        environment: ["HOME": "/h", "XDG_DATA_HOME": "/x", "XDG_DATA_DIRS": "/x:/y"],
        folders: ["/x/notify/sounds/app", "/y/notify/sounds/app"]),
    ])
  func folders(_ folderCase: FolderCase) throws {
    // Given an environment; When the library is made; Then its folders are in XDG order
    #expect(try SoundLibrary(app: "app", environment: folderCase.environment).folders == folderCase.folders)
  }

  @Test("an app id that could escape the folders is refused")
  func badApp() {
    #expect(throws: NotifyError.self) { try SoundLibrary(app: "..", environment: [:]) }
    #expect(throws: NotifyError.self) { try SoundLibrary(app: "a/b", environment: [:]) }
  }

  // MARK: Lookup

  @Test("the user's folder wins over the system folders, which are searched in order")
  func lookupOrder() throws {
    // Given ping.wav in dataB and the user folder, and chime.wav in dataA and dataB
    let sandbox = Sandbox()
    sandbox.sound("ping.wav", in: sandbox.dataB)
    let userPing = sandbox.sound("ping.wav", in: sandbox.home)
    let chimeA = sandbox.sound("chime.wav", in: sandbox.dataA)
    sandbox.sound("chime.wav", in: sandbox.dataB)
    let library = try sandbox.library()

    // When they are located; Then the earliest folder holding each name wins
    #expect(try library.locate("ping.wav") == SoundLibrary.realPath(userPing))
    #expect(try library.locate("chime.wav") == SoundLibrary.realPath(chimeA))
    #expect(try library.locate("nothing.wav") == nil)
  }

  @Test(
    "names that are not plain file names are refused with invalid data",
    arguments: ["../x", ".hidden", "a/b.wav", "/etc/passwd", "..", ""])
  func refusedNames(_ name: String) throws {
    // Given a library
    let library = try Sandbox().library()

    // When a path-like name is looked up; Then it is refused with exit 65
    #expect { try library.locate(name) } throws: { ($0 as? NotifyError)?.kind == .invalidData }
    #expect { try library.resolve(.file(name), strict: true) } throws: {
      ($0 as? NotifyError)?.exitCode == 65
    }
    // And resolving without strictness falls back to the default sound
    let resolution = library.resolve(.file(name))
    #expect(resolution.effective == .default)
    #expect(resolution.requested == name)
    #expect(resolution.note == "is not a plain file name")
  }

  @Test("a link leading outside the sound folders is not used")
  func escapingLink() throws {
    // Given a valid sound outside the folders, linked from the user folder
    let sandbox = Sandbox()
    let outside = sandbox.root.write("outside/secret.wav", SoundBytes.pcmWAV(frames: 10))
    let folder = try sandbox.library().installFolder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: "\(folder)/secret.wav", withDestinationPath: outside)
    let library = try sandbox.library()

    // When it is looked up
    let located = try library.locate("secret.wav")
    let resolution = library.resolve(.file("secret.wav"))

    // Then it is not used, and the note says why
    #expect(located == nil)
    #expect(resolution.effective == .default)
    #expect(resolution.note?.contains("leads outside the sound folders") == true)
  }

  @Test("a link to another of the app's folders is used; a link inside the folder too")
  func linkBetweenFolders() throws {
    // Given a system sound linked from the user folder, and an alias inside one folder
    let sandbox = Sandbox()
    let system = sandbox.sound("bell.wav", in: sandbox.dataB)
    let folder = try sandbox.library().installFolder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: "\(folder)/bell.wav", withDestinationPath: system)
    try FileManager.default.createSymbolicLink(atPath: "\(folder)/alias.wav", withDestinationPath: "bell.wav")
    let library = try sandbox.library()

    // When they are located; Then both lead to the system file
    #expect(try library.locate("bell.wav") == SoundLibrary.realPath(system))
    #expect(try library.locate("alias.wav") == SoundLibrary.realPath(system))
  }

  @Test("a link from a sound folder to a sibling folder whose name starts the same is refused")
  func prefixTrick() throws {
    // Given /…/sounds/chat-evil/x.wav linked as /…/sounds/chat/x.wav
    let sandbox = Sandbox()
    let evil = sandbox.sound("x.wav", in: sandbox.home, app: "chat-evil")
    let folder = try sandbox.library().installFolder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: "\(folder)/x.wav", withDestinationPath: evil)

    // When it is located; Then it is not used
    #expect(try sandbox.library().locate("x.wav") == nil)
  }

  // MARK: Resolve

  @Test("none and default resolve to themselves", arguments: [SoundName.none, .default])
  func builtIn(_ sound: SoundName) throws {
    let resolution = try Sandbox().library().resolve(sound)
    #expect(resolution == SoundResolution(effective: sound))
    #expect(resolution.warning == nil && resolution.strictError == nil)
  }

  @Test("a valid sound resolves to its file")
  func validSound() throws {
    // Given a valid sound in a system folder
    let sandbox = Sandbox()
    let path = sandbox.sound("ok.wav", in: sandbox.dataA)

    // When it is resolved (strictly)
    let resolution = try sandbox.library().resolve(.file("ok.wav"), strict: true)

    // Then it is used as is
    #expect(resolution == SoundResolution(effective: .file("ok.wav"), file: SoundLibrary.realPath(path)))
  }

  @Test("a missing sound falls back to the default and says where it looked")
  func missingSound() throws {
    // Given an empty library
    let sandbox = Sandbox()
    let library = try sandbox.library()

    // When a missing sound is resolved
    let resolution = library.resolve(.file("gone.wav"))

    // Then the default sound plays, with the name and the folders in the note
    #expect(resolution.effective == .default)
    #expect(resolution.requested == "gone.wav")
    #expect(resolution.note == "is not found in \(library.folders.joined(separator: ", "))")
    #expect(resolution.warning?.hasPrefix("sound 'gone.wav' is not found in ") == true)
    #expect(resolution.warning?.hasSuffix("; the default sound will play instead") == true)
    #expect(resolution.strictError?.exitCode == 65)
  }

  @Test("a sound of 30 s or more falls back to the default, and strict refuses it")
  func tooLong() throws {
    // Given a 40 s sound (8 kHz mono 16-bit, written by hand)
    let sandbox = Sandbox()
    sandbox.sound("long.wav", in: sandbox.home, frames: 40 * 8000)
    let library = try sandbox.library()

    // When it is resolved
    let resolution = library.resolve(.file("long.wav"))

    // Then the default plays, with the reason
    #expect(resolution.effective == .default)
    #expect(resolution.file == nil)
    #expect(resolution.note == "lasts 40.0 s; notification sounds must be shorter than 30 s")
    // And strict resolution throws invalid data with the reason and a fix
    #expect {
      try library.resolve(.file("long.wav"), strict: true)
    } throws: { error in
      let error = error as? NotifyError
      return error?.kind == .invalidData
        && error?.problem == "sound 'long.wav' lasts 40.0 s; notification sounds must be shorter than 30 s"
        && error?.fix?.contains("trim 0 29") == true
    }
  }

  @Test("the check runs again each time: a sound replaced by a bad file falls back")
  func checkedAgain() throws {
    // Given a valid sound that resolves
    let sandbox = Sandbox()
    let path = sandbox.sound("swap.wav", in: sandbox.home)
    let library = try sandbox.library()
    #expect(library.resolve(.file("swap.wav")).effective == .file("swap.wav"))

    // When the file is replaced by text and resolved again
    try Data("not audio".utf8).write(to: URL(fileURLWithPath: path))
    let resolution = library.resolve(.file("swap.wav"))

    // Then it now falls back
    #expect(resolution.effective == .default)
    #expect(resolution.note?.hasPrefix("is text, not audio") == true)
  }

  @Test("a resolution is recorded on a delivery")
  func appliesToDelivery() throws {
    // Given a delivery of a notification asking for a missing sound
    let notification = LocalNotification(
      id: "n1", app: "chat", schedule: Schedule(fireDate: .instant(Date(timeIntervalSince1970: 0))),
      body: "hi", sound: .file("gone.wav"), createdAt: Date(timeIntervalSince1970: 0))
    var delivery = Delivery(
      notification: notification, occurrence: 1, fireDate: Date(timeIntervalSince1970: 0),
      deliveredAt: Date(timeIntervalSince1970: 0), late: false)

    // When the notification's sound is resolved as the firing engine does, and applied
    delivery.apply(SoundLibrary.resolve(notification, environment: Sandbox().environment))

    // Then the delivery carries the substitute and why
    #expect(delivery.sound == .default)
    #expect(delivery.soundRequested == "gone.wav")
    #expect(delivery.soundNote?.hasPrefix("is not found in") == true)
    #expect(delivery.soundFile == nil)
  }

  // MARK: Install and list

  @Test("install copies a valid sound into 0700 folders")
  func install() throws {
    // Given a valid sound file elsewhere
    let sandbox = Sandbox()
    let source = sandbox.root.write("incoming/ding.wav", SoundBytes.pcmWAV(frames: 400))
    let library = try sandbox.library()

    // When it is installed
    let installed = try library.install(file: source)

    // Then it is in the user folder, identical, and the created folders are 0700
    #expect(installed == "\(library.installFolder)/ding.wav")
    #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: source))
    for folder in [
      sandbox.home, "\(sandbox.home)/notify", "\(sandbox.home)/notify/sounds", library.installFolder,
    ] {
      let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(folder)")
    }
    #expect(try library.locate("ding.wav") == SoundLibrary.realPath(installed))
    // And no temporary file is left behind
    #expect(try FileManager.default.contentsOfDirectory(atPath: library.installFolder) == ["ding.wav"])
  }

  struct InstallRefusal: CustomTestStringConvertible, Sendable {
    let name: String
    let fileName: String
    let bytes: [UInt8]?
    let kind: NotifyError.Kind
    let says: String
    var testDescription: String { name }
  }

  @Test(
    "install refuses and copies nothing",
    arguments: [
      InstallRefusal(
        name: "40 s sound", fileName: "long.wav", bytes: SoundBytes.pcmWAV(frames: 40 * 8000),
        kind: .invalidData, says: "lasts 40.0 s"),
      InstallRefusal(
        name: "text", fileName: "text.wav", bytes: Array("hello".utf8), kind: .invalidData, says: "is text"),
      InstallRefusal(
        name: "hidden name", fileName: ".dot.wav", bytes: SoundBytes.pcmWAV(frames: 10), kind: .invalidData,
        says: "is not a plain file name"),
      InstallRefusal(
        name: "missing file", fileName: "absent.wav", bytes: nil, kind: .noInput, says: "no such file"),
    ])
  func installRefused(_ refusal: InstallRefusal) throws {
    // Given a file that may not be installed
    let sandbox = Sandbox()
    let source =
      refusal.bytes.map { sandbox.root.write("incoming/\(refusal.fileName)", $0) }
      ?? sandbox.root.file("incoming/\(refusal.fileName)")
    let library = try sandbox.library()

    // When it is installed; Then it is refused with the right kind and reason
    #expect {
      try library.install(file: source)
    } throws: { error in
      let error = error as? NotifyError
      return error?.kind == refusal.kind && error?.problem.contains(refusal.says) == true
    }
    // And nothing was copied
    let copied = (try? FileManager.default.contentsOfDirectory(atPath: library.installFolder)) ?? []
    #expect(copied.isEmpty)
  }

  @Test("list shows each name once, as resolve would use it, with its verdict")
  func list() throws {
    // Given sounds in several folders, one shadowed, one too long, one hidden file
    let sandbox = Sandbox()
    let userPing = sandbox.sound("ping.wav", in: sandbox.home)
    sandbox.sound("ping.wav", in: sandbox.dataA)
    sandbox.sound("long.wav", in: sandbox.dataB, frames: 31 * 8000)
    sandbox.sound(".partial", in: sandbox.home)

    // When the library lists them
    let entries = try sandbox.library().list()

    // Then names are sorted, unique, and judged
    #expect(entries.map(\.name) == ["long.wav", "ping.wav"])
    #expect(entries[0].verdict.reason == "lasts 31.0 s; notification sounds must be shorter than 30 s")
    #expect(entries[1].verdict == .valid)
    #expect(entries[1].file == SoundLibrary.realPath(userPing))
    #expect(entries[1].info?.duration == 0.1)
  }
}

/// How large an installed sound may be: what 30 s of its format take, plus headers.
@Suite("SoundRules.maximumFileSize")
struct SoundFileSizeTests {
  @Test(
    "the bound follows the format, and never passes 10 MiB",
    arguments: [
      (8000.0, 1, 16, Int64(480_000 + 1_048_576)),
      (44100.0, 2, 16, Int64(5_292_000 + 1_048_576)),
      (96000.0, 2, 24, Int64(10 << 20)),
    ])
  func bounds(rate: Double, channels: Int, bits: Int, expected: Int64) {
    let info = SoundFileInfo(
      container: .wav, encoding: .linearPCM(.signedInteger), channels: channels, sampleRate: rate,
      bitsPerSample: bits, frames: 100)
    #expect(SoundRules.maximumFileSize(for: info) == expected)
  }

  @Test func aValidSoundPaddedWithZerosIsNotInstalled() throws {
    let folder = TemporaryDirectory()
    let padded = folder.path + "/padded.wav"
    try TestWAVBytes.oneSecond().write(to: URL(fileURLWithPath: padded))
    #expect(truncate(padded, off_t(2 << 20)) == 0)
    let library = try SoundLibrary(app: "chat", environment: ["XDG_DATA_HOME": folder.path + "/data"])
    let error = #expect(throws: NotifyError.self) { try library.install(file: padded) }
    #expect(error?.kind == .invalidData)
    #expect(error?.description.contains("is 2097152 bytes") == true, "\(String(describing: error))")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/data/notify/sounds/chat/padded.wav"))
  }
}

/// A valid 1 s WAV: 8 kHz, 16-bit mono silence.
enum TestWAVBytes {
  static func oneSecond() -> Data {
    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      withUnsafeBytes(of: value.littleEndian, Array.init)
    }
    let data = UInt32(16_000)
    var bytes = Array("RIFF".utf8) + le(UInt32(36) + data) + Array("WAVEfmt ".utf8)
    bytes +=
      le(UInt32(16)) + le(UInt16(1)) + le(UInt16(1)) + le(UInt32(8000)) + le(UInt32(16_000)) + le(UInt16(2))
    bytes += le(UInt16(16)) + Array("data".utf8) + le(data) + [UInt8](repeating: 0, count: Int(data))
    return Data(bytes)
  }
}
