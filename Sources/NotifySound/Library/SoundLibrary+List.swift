import Foundation
import NotifyCore

extension SoundLibrary {
  /// One sound name of the app, as `notify sound list` shows it.
  public struct Entry: Hashable, Sendable {
    /// The sound name (what `--sound` takes).
    public var name: String
    /// The file used for the name (its real path), or nil when none is usable.
    public var file: String?
    /// What the file holds, when it could be read.
    public var info: SoundFileInfo?
    /// Whether the name may be used, and why not.
    public var verdict: SoundVerdict
  }

  /// Every sound name in the app's folders, sorted, each judged as `resolve` would:
  /// a name in an earlier folder hides the same name in later ones. Hidden files
  /// (leading `.`) are not sounds and are skipped.
  public func list() -> [Entry] {
    var names = Set<String>()
    for folder in folders {
      let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      names.formUnion(contents.filter { !$0.hasPrefix(".") })
    }
    return names.sorted().map(entry(named:))
  }

  private func entry(named name: String) -> Entry {
    let lookup: Lookup
    do { lookup = try lookUp(name) } catch {
      return Entry(name: name, verdict: .invalid(reason: "is not a plain file name", fix: error.fix ?? ""))
    }
    guard let file = lookup.file else {
      let reason =
        lookup.refusals.isEmpty ? "is not a file" : "is not used: " + lookup.refusals.joined(separator: "; ")
      return Entry(
        name: name, verdict: .invalid(reason: reason, fix: "copy the sound in with 'notify sound install'"))
    }
    do {
      let check = try SoundCheck.file(file)
      return Entry(name: name, file: file, info: check.info, verdict: check.verdict)
    } catch {
      return Entry(
        name: name, file: file, verdict: .invalid(reason: error.problem, fix: error.fix ?? "check the file"))
    }
  }
}
