import ArgumentParser
import Foundation
import NotifyCore

/// Runs the command tree, printing `notify: error: …` and exiting with the spec's codes.
enum CLIEntry {
  static func main() {
    do {
      var command = try parse(Array(CommandLine.arguments.dropFirst()))
      try command.run()
    } catch let error as NotifyError {
      fail(error)
    } catch let exit as ExitCode {
      Foundation.exit(exit.rawValue)
    } catch {
      // ArgumentParser repeats an offending argument verbatim: show its control characters
      // instead of letting them drive the terminal (SPEC.md §5). Help and version unchanged.
      let status = NotifyCommand.exitCode(for: error)
      if status == .success { NotifyCommand.exit(withError: error) }
      var message = Escaper.visible(NotifyCommand.fullMessage(for: error), keepLines: true)
      // SPEC.md §5: errors read `notify: error: ...`, usage errors too.
      if message.hasPrefix("Error: ") { message = "notify: error: " + message.dropFirst("Error: ".count) }
      FileHandle.standardError.write(Data((message + "\n").utf8))
      Foundation.exit(status.rawValue)
    }
  }

  /// Parses `arguments` straight into the subcommand they name when they are valid for it:
  /// the full tree first reflects over every subcommand's arguments, which was a third of
  /// a `notify schedule` run (BENCHMARKS.md, CLI cost). Each subcommand names `notify` as
  /// its `_superCommandName` (argument-parser's experimental "super-command" setting,
  /// pinned at 1.8.2), which also spares it the completion-script probe that only the
  /// root answers. Anything else (help, a usage error, no subcommand) goes through the
  /// full tree, so messages and usage lines are exactly as before.
  static func parse(_ arguments: [String]) throws -> ParsableCommand {
    if let name = arguments.first,
      let subcommand = NotifyCommand.configuration.subcommands.first(where: {
        $0.configuration.commandName == name
      }),
      let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    {
      return command
    }
    return try NotifyCommand.parseAsRoot(arguments)
  }

  /// Prints the error on stderr and exits with its code.
  static func fail(_ error: NotifyError) -> Never {
    Output.error("error: \(error.commandLineText)")
    Foundation.exit(error.exitCode)
  }

  /// The 1-based position of the first argument that is not valid UTF-8, if any.
  static func firstInvalidUTF8Argument() -> Int? {
    for i in 1..<Int(CommandLine.argc) {
      guard let raw = CommandLine.unsafeArgv[i] else { continue }
      if String(validatingCString: raw) == nil { return i }
    }
    return nil
  }
}

enum NotifyErrorText {
  static func invalidUTF8(argument: Int) -> NotifyError {
    NotifyError(
      .invalidData, "argument \(argument) is not valid UTF-8 text",
      fix: "pass text encoded as UTF-8 (check the terminal's or the script's encoding)")
  }
}
