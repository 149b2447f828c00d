import Foundation
import NotifyTestSupport
import Testing

/// The files a caller sends with `Schedule` (attachments and sound files as descriptors):
/// bounded before anything is copied, copied once each and only for what is kept, and
/// nothing left behind by a refused call. A real bus, `notify daemon`, the Python client.
@Suite(
  .ownThreads,
  .needsSchedulerBus
)
struct SchedulerFilesTests {
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { UInt8($0 % 251) }
  static let invalidArgs = "io.github.notify.Scheduler1.Error.InvalidArgs"

  /// A file of `bytes`, made `size` long with a hole when given.
  func write(_ bus: SchedulerBus, _ name: String, _ bytes: [UInt8], size: Int? = nil) throws -> String {
    let path = bus.folder.file(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    if let size { #expect(truncate(path, off_t(size)) == 0) }
    return path
  }

  /// The files in the store's attachment folder of `app`.
  func copies(_ bus: SchedulerBus, app: String) -> [String] {
    let folder = bus.folder.file("notify.db.attachments/\(app)")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  @Test(
    "a descriptor notify cannot read is InvalidArgs, as the README says", arguments: ["write", "path", "mem"])
  func unreadableDescriptors(mode: String) throws {
    // Given the daemon, and an image the client opens write-only, O_PATH, or /proc/self/mem
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let image = try write(bus, "cat.png", Self.png)
    // When it is attached
    let answer = try bus.python("attach-fd", "org.example.Fd", "u1", mode, image)
    // Then the caller's bad argument is named, and nothing is stored or kept
    #expect(answer["error"] as? String == Self.invalidArgs, "\(answer)")
    #expect((answer["message"] as? String ?? "").contains("attachment 1"), "\(answer)")
    #expect(try bus.pendingIDs(app: "org.example.Fd").isEmpty)
    #expect(copies(bus, app: "org.example.Fd").isEmpty)
  }

  @Test func aSoundPaddedPastWhatItsFormatHoldsIsRefusedBeforeItIsCopied() throws {
    // Given a valid 1 s WAV (8 kHz, 16-bit mono: 16,000 bytes of audio) followed by 64 MiB of zeros
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let wav = bus.folder.file("padded.wav")
    try TestWAV.pcm16(frames: 8000, rate: 8000).write(to: URL(fileURLWithPath: wav))
    #expect(truncate(wav, off_t(64 << 20)) == 0)
    // When it is sent as the sound of a notification
    let answer = try bus.python("sound-file", "org.example.Padded", "p1", "padded.wav", wav)
    // Then it is refused, saying its size and the bound; nothing installed, nothing stored
    #expect(answer["error"] as? String == Self.invalidArgs, "\(answer)")
    let message = answer["message"] as? String ?? ""
    #expect(message.contains("is 67108864 bytes") && message.contains("may take at most"), "\(message)")
    let sounds = bus.folder.file("data/notify/sounds/org.example.Padded")
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: sounds)) ?? []).isEmpty)
    #expect(try bus.pendingIDs(app: "org.example.Padded").isEmpty)
  }

  @Test func oneDescriptorNamedManyTimesIsCopiedOnce() throws {
    // Given a 1 MiB image
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let image = try write(bus, "big.png", Self.png, size: 1 << 20)
    // When 64 requests each attach its one descriptor 10 times
    let answer = try bus.python("same-fd", "org.example.Same", "64", "10", image)
    #expect(answer["result"] != nil, "\(answer)")
    // Then there is one copy, and every notification names it 10 times
    let kept = copies(bus, app: "org.example.Same")
    #expect(kept.count == 1, "\(kept.count) copies")
    let listed = try bus.notify("list", "--json", "--app", "org.example.Same").stdout
    let items = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
    #expect(items.count == 64)
    let files = Set(
      items.flatMap { ($0["attachments"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String } })
    #expect(files.count == 1 && items.allSatisfy { ($0["attachments"] as? [Any])?.count == 10 })
    #expect(files.first.map { fileBytes($0)?.count } == 1 << 20)
  }

  @Test func aCallWhoseFilesPassItsBoundIsRefusedBeforeAnyIsCopied() throws {
    // Given seven different 10 MiB images (70 MiB: the call's bound is 64 MiB)
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let images = try (1...7).map { try write(bus, "i\($0).png", Self.png, size: 10 << 20) }
    // When one call attaches them, one per request
    let answer = try bus.python(["files", "org.example.Bound"] + images)
    // Then it is refused, naming the bound; nothing is stored, nothing copied
    #expect(answer["error"] as? String == Self.invalidArgs, "\(answer)")
    #expect((answer["message"] as? String ?? "").contains("at most 67108864 (64 MiB)"), "\(answer)")
    #expect(try bus.pendingIDs(app: "org.example.Bound").isEmpty)
    #expect(copies(bus, app: "org.example.Bound").isEmpty)
  }

  @Test func aRequestTheLimitDiscardsHasNoFileReadOrCopied() throws {
    // Given 64 pending notifications that all fire within the hour
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let items = (1...64).map { "{'id': <'n\($0)'>, 'body': <'b'>, 'in': <'\($0)m'>}" }.joined(separator: ", ")
    #expect(try bus.gdbus("Schedule", "org.example.Full", "[\(items)]").status == 0)
    // When one more, in 2 h, attaches a file that is no image
    let text = try write(bus, "notes.png", Array("not an image".utf8))
    let answer = try bus.python("limited", "org.example.Full", text)
    // Then the limit discards it, as it would without the file: the file was never looked at
    #expect(answer["error"] as? String == "io.github.notify.Scheduler1.Error.LimitReached", "\(answer)")
    #expect((answer["message"] as? String ?? "").contains("not scheduled: 'late'"), "\(answer)")
    #expect(copies(bus, app: "org.example.Full").isEmpty)
  }

  @Test func aRefusedScheduleLeavesNoSoundInstalled() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let wav = bus.folder.file("ping.wav")
    try TestWAV.pcm16().write(to: URL(fileURLWithPath: wav))
    let text = try write(bus, "notes.png", Array("not an image".utf8))
    let sounds = bus.folder.file("data/notify/sounds/org.example.Sounds")
    // When a request's sound comes with an attachment that is refused
    let attached = try bus.python("sound-and-attach", "org.example.Sounds", "s1", "ping.wav", wav, text)
    #expect(attached["error"] as? String == Self.invalidArgs, "\(attached)")
    // And when a batch's sound comes with a request whose rule never fires
    let never = try bus.python("sound-then-never", "org.example.Sounds", "pong.wav", wav)
    #expect(
      never["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidTrigger", "\(never)")
    // Then neither sound is installed, and nothing is stored
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: sounds)) ?? []).isEmpty)
    #expect(try bus.pendingIDs(app: "org.example.Sounds").isEmpty)
  }

  @Test func aConnectionsCallsTakeEffectInTheOrderSent() throws {
    // Given an image
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let image = try write(bus, "cat.png", Self.png, size: 4 << 20)
    // When a client schedules p1 with it and, without waiting for the answer, cancels p1
    let answers = try bus.python("pipelined", "org.example.Order", image)
    // Then the cancel came after the schedule: both took effect, nothing is pending
    let schedule = answers["schedule"] as? [String: Any]
    let cancel = answers["cancel"] as? [String: Any]
    #expect(schedule?["result"] != nil, "\(answers)")
    #expect(cancel?["result"] != nil, "\(answers)")
    #expect(try bus.pendingIDs(app: "org.example.Order").isEmpty)
  }
}
