import ArgumentParser

/// `notify fire-due`: deliver what is due, then exit (SPEC.md §6). Owned by the firing work.
struct FireDueCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fire-due", abstract: "Deliver what is due, then exit.")
  func run() throws { throw CleanExit.message("notify fire-due: not built yet") }
}
