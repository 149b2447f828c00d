import ArgumentParser

/// `notify daemon`: the resident firing service (SPEC.md §6). Owned by the firing work.
struct DaemonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon", abstract: "Run the resident service that fires notifications on time.")
  func run() throws { throw CleanExit.message("notify daemon: not built yet") }
}
