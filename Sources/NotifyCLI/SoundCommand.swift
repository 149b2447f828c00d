import ArgumentParser
import Foundation
import NotifyCore
import NotifySound

/// `notify sound check/install/list` (SPEC.md §4).
struct SoundCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sound", _superCommandName: "notify",
    abstract: "Check, install and list notification sounds.",
    discussion: """
      A sound is valid when it is a WAV, AIFF/AIFC or CAF file holding Linear PCM, IMA ADPCM, \
      mu-law or A-law that lasts less than 30 seconds. An app's sounds live in \
      $XDG_DATA_HOME/notify/sounds/APP/, then DIR/notify/sounds/APP/ for each DIR of $XDG_DATA_DIRS.
      """,
    subcommands: [Check.self, Install.self, List.self]
  )

  /// `notify sound check FILE`: exit 0 valid, 1 invalid, 66 no such file.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what a sound file holds and whether it may be used.",
      discussion:
        "Exits 0 when the file is a valid notification sound, 1 when it is not, 66 when it is missing.")

    @Argument(help: "The sound file.") var file: String
    @Option(help: ArgumentHelp("The store (not used by sound commands).", visibility: .hidden)) var db:
      String?

    func run() throws {
      SoundCommand.exitOnError { () throws(NotifyError) in
        let check = try SoundCheck.file(file)
        print(SoundCommand.report(check), terminator: "")
        if !check.verdict.isValid { SoundCommand.exit(.notTakenEffect) }
      }
    }
  }

  /// `notify sound install FILE [--app APP]`.
  struct Install: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check a sound file and copy it into the app's sound folder.",
      discussion:
        "Prints the installed path. An invalid sound, or a file larger than 30 s of its format and 1 MiB more (10 MiB at most), is refused (exit 65) and nothing is copied."
    )

    @Argument(help: "The sound file; it is installed under its own file name.") var file: String
    @Option(help: "The app the sound is for (env NOTIFY_APP, default notify).") var app: String?
    @Option(help: ArgumentHelp("The store (not used by sound commands).", visibility: .hidden)) var db:
      String?

    func run() throws {
      SoundCommand.exitOnError { () throws(NotifyError) in
        let library = try SoundLibrary(app: SoundCommand.app(app))
        print(Escaper.visible(try library.install(file: file)))
      }
    }
  }

  /// `notify sound list [--app APP]`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the app's sounds with their verdicts.",
      discussion: "A name in an earlier folder hides the same name in later folders.")

    @Option(help: "The app whose sounds to list (env NOTIFY_APP, default notify).") var app: String?
    @Option(help: ArgumentHelp("The store (not used by sound commands).", visibility: .hidden)) var db:
      String?

    func run() throws {
      SoundCommand.exitOnError { () throws(NotifyError) in
        let library = try SoundLibrary(app: SoundCommand.app(app))
        let entries = library.list()
        guard !entries.isEmpty else {
          let folders = library.folders.map { Escaper.visible($0) }.joined(separator: ", ")
          print("no sounds for app '\(library.app)' (looked in \(folders))")
          return
        }
        let width = min(40, entries.map { Escaper.visible($0.name).count }.max() ?? 0)
        for entry in entries {
          let name = Escaper.visible(entry.name)
          let duration = entry.info?.duration.map { SoundCommand.seconds($0) } ?? "-"
          var line = name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
          line += "  " + duration.leftPadded(to: 10) + "  " + Escaper.visible(entry.verdict.description)
          if let file = entry.file { line += "  " + Escaper.visible(file) }
          print(line)
        }
      }
    }
  }

  // MARK: Shared

  /// `--app`, else `NOTIFY_APP`, else `notify`.
  static func app(_ option: String?) -> String {
    option ?? ProcessInfo.processInfo.environment["NOTIFY_APP"] ?? "notify"
  }

  /// Runs `body`; a `NotifyError` is printed as `notify: error: PROBLEM: FIX` and the
  /// process exits with its code, so exit codes are exactly SPEC.md §5's.
  static func exitOnError(_ body: () throws(NotifyError) -> Void) {
    do { try body() } catch {
      FileHandle.standardError.write(Data("notify: error: \(Escaper.visible(error.commandLineText))\n".utf8))
      exit(error.kind)
    }
  }

  static func exit(_ kind: NotifyError.Kind) -> Never {
    fflush(nil)
    Foundation.exit(kind.rawValue)
  }

  /// The lines `sound check` prints.
  static func report(_ check: SoundCheck) -> String {
    let info = check.info
    let rows: [(String, String)] = [
      ("file", check.path),
      ("container", check.containerDescription),
      ("encoding", info?.encodingDescription ?? "unknown"),
      ("channels", info.map { String($0.channels) } ?? "unknown"),
      ("rate", info.map { hertz($0.sampleRate) } ?? "unknown"),
      (
        "duration",
        info.flatMap { info in info.duration.map { "\(seconds($0)) (\(info.frames ?? 0) frames)" } }
          ?? "unknown"
      ),
      ("verdict", check.verdict.isValid ? "valid" : "invalid: \(check.verdict.reason ?? "")"),
    ]
    var out = rows.map {
      "\($0.0):".padding(toLength: 11, withPad: " ", startingAt: 0) + Escaper.visible($0.1) + "\n"
    }.joined()
    if case .invalid(_, let fix) = check.verdict { out += "fix:       \(Escaper.visible(fix))\n" }
    return out
  }

  static func seconds(_ value: Double) -> String {
    value < 1e9 ? String(format: "%.3f s", value) : "\(value) s"
  }

  static func hertz(_ value: Double) -> String {
    value == value.rounded() && value < 1e9 ? "\(Int(value)) Hz" : String(format: "%.3f Hz", value)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
