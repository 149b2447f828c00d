import ArgumentParser
import Foundation
import Logging
import Notify
import NotifyCore
import ServiceLifecycle

/// `chat-client`: a small IRC client that shows private messages and mentions as local
/// notifications while it is online, and leaves reminders to the `notify` daemon.
struct ChatClientCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat-client",
    abstract: "An IRC client that turns private messages and mentions into local notifications.",
    discussion: """
      While online, each private message or mention is shown as a notification: the sender \
      as title (\"SENDER in #CHANNEL\" for a mention), the text as body, the default sound, \
      the unread count as badge, sender and channel in userInfo. When the server drops the \
      connection the client reconnects, 1 s later, then waiting twice as long before each \
      attempt up to 30 s (--reconnect-attempts, --reconnect-delay); when they run out it goes \
      offline and exits 69. A hung notification server never holds up the chat, and what it \
      refused is shown once it is back. Type /remind 10m TEXT to schedule a reminder in the \
      notify store; this client fires it while it runs, the notify daemon once it is gone \
      (never both). Anything typed that is not a command is said in the conversation: the \
      channel, or the nick chosen with /query NICK or by clicking a private message. For a \
      minute after each line typed, notifications appear in the transcript only. Stdout \
      carries only notifications (JSON Lines when it is not a terminal); the chat and status \
      lines go to stderr. --install-desktop-entry writes the desktop entry that starts the \
      client with these options when one of its notifications is clicked after it quit.
      """)

  @Option(help: ArgumentHelp("The IRC server (port 6667 when omitted).", valueName: "host:port"))
  var server: String

  @Option(help: "Your nick.")
  var nick: String

  @Option(help: "The channel to join, e.g. #notify.")
  var channel: String

  @Option(
    help: "auto (the default: desktop when a notification server answers, else stdout), desktop or stdout.")
  var sink: SinkChoice?

  @Option(help: ArgumentHelp("The notify store (env NOTIFY_DB).", valueName: "path"))
  var db: String?

  @Option(
    help: ArgumentHelp("The app the notifications belong to (env NOTIFY_APP, default chat).", valueName: "id")
  )
  var app: String?

  @Option(
    name: .customLong("offline-budget"),
    help: ArgumentHelp("How long going offline may take, e.g. 10s.", valueName: "duration"))
  var offlineBudget = Self.defaultOfflineBudget

  static let defaultOfflineBudget = "10s"

  @Option(
    name: .customLong("reconnect-attempts"),
    help: "How many times in a row to try to reconnect after the server drops the client (0: never).")
  var reconnectAttempts = ReconnectPolicy.standard.attempts

  @Option(
    name: .customLong("reconnect-delay"),
    help: ArgumentHelp(
      "The wait before the first reconnect attempt, doubling after each up to 30 s, e.g. 1s.",
      valueName: "duration"))
  var reconnectDelay = Self.defaultReconnectDelay

  static let defaultReconnectDelay = "1s"

  @Flag(name: .customLong("no-firing"), help: "Leave every scheduled notification to the notify daemon.")
  var noFiring = false

  @Flag(
    name: .customLong("install-desktop-entry"),
    help: ArgumentHelp(
      "Write $XDG_DATA_HOME/applications/APP.desktop, which starts this client with these options, print its path and exit.",
      discussion: "A click on a notification of the client after it quit starts the client from that entry."))
  var installDesktopEntry = false

  func run() async throws {
    do {
      if installDesktopEntry {
        print(try installEntry())
        return
      }
      try await runClient()
    } catch let error as ChatError {
      Transcript.error(error.description)
      throw ExitCode(error.exitCode)
    } catch let error as NotificationError {
      Transcript.error(error.description)
      throw ExitCode(Self.exitCode(for: error))
    } catch let error as NotifyError {
      Transcript.error(error.description)
      throw ExitCode(error.exitCode)
    }
  }

  /// The exit code (sysexits) for a failure of the notification library: the client's own
  /// table over the cases it switches on.
  static func exitCode(for error: NotificationError) -> Int32 {
    switch error {
    case .limitReached, .notFound: 1
    case .notAllowed: 64
    case .invalidContent, .soundRejected: 65
    case .serverUnavailable, .notAvailable: 69
    case .storeUnavailable: 74
    case .storeBusy, .serverTimedOut, .temporary: 75
    }
  }

  private func runClient() async throws {
    let (host, port) = try ServerAddress.parse(server)
    try ChatNames.checkNick(nick)
    let channel = try ChatNames.channel(channel)
    let app = resolvedApp().id
    let budget: TimeInterval
    do { budget = try TimeParser.duration(offlineBudget) } catch {
      throw ChatError("--offline-budget: \(error.description)", exitCode: 64)
    }
    let reconnect = try reconnectPolicy()
    let center = try LocalNotificationCenter(app: app, storePath: db, sink: sink ?? .auto)
    Transcript.status("notifications for app \(app) go to the \(center.sinkName) sink")

    let session = ChatSession(
      host: host, port: port, nick: nick, channel: channel, center: center,
      presenter: MessagePresenter(center: center),
      offlineBudget: .milliseconds(Int64(budget * 1000)), firesInProcess: !noFiring, reconnect: reconnect)
    // Either one returning shuts the other down gracefully. The last in the list shuts
    // down first: on SIGTERM the session goes offline while firing still runs.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
    // The center's service also relays desktop activations, so it runs even when firing
    // is left to the daemon.
    services.append(
      .init(
        service: center.firingService(firesScheduledNotifications: !noFiring),
        successTerminationBehavior: .gracefullyShutdownGroup))
    services.append(.init(service: session, successTerminationBehavior: .gracefullyShutdownGroup))
    var logger = Logger(label: "chat-client")
    logger.logLevel = .warning
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
  }

  /// `--reconnect-attempts` and `--reconnect-delay`, checked.
  func reconnectPolicy() throws(ChatError) -> ReconnectPolicy {
    guard (0...100).contains(reconnectAttempts) else {
      throw ChatError(
        "--reconnect-attempts \(reconnectAttempts) is out of range", fix: "use 0 (never) to 100", exitCode: 64
      )
    }
    let delay: TimeInterval
    do { delay = try TimeParser.duration(reconnectDelay) } catch {
      throw ChatError("--reconnect-delay: \(error.description)", exitCode: 64)
    }
    let first = Duration.seconds(Int64(min(delay, 30)))
    return ReconnectPolicy(
      attempts: reconnectAttempts, firstDelay: first,
      maximumDelay: max(first, ReconnectPolicy.standard.maximumDelay))
  }

  /// The app id: `--app`, else `NOTIFY_APP`, else `chat`; and whether one was given.
  func resolvedApp() -> (id: String, given: Bool) {
    if let app { return (app, true) }
    if let app = ProcessInfo.processInfo.environment["NOTIFY_APP"], !app.isEmpty { return (app, true) }
    return ("chat", false)
  }
}

extension SinkChoice: ExpressibleByArgument {}

/// `HOST:PORT`, `HOST` or `[IPv6]:PORT`.
enum ServerAddress {
  static func parse(_ text: String) throws(ChatError) -> (host: String, port: UInt16) {
    var host = text
    var portText: String?
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      host = String(text[text.index(after: text.startIndex)..<close])
      let rest = text[text.index(after: close)...]
      if rest.hasPrefix(":") { portText = String(rest.dropFirst()) }
    } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
      host = String(text[..<colon])
      portText = String(text[text.index(after: colon)...])
    }
    guard !host.isEmpty else {
      throw ChatError(
        "--server '\(Escaper.visible(text))' has no host", fix: "use HOST:PORT, e.g. irc.example.org:6667",
        exitCode: 64)
    }
    guard let portText else { return (host, 6667) }
    guard let port = UInt16(portText), port > 0 else {
      throw ChatError(
        "--server port '\(Escaper.visible(portText))' is not a port number", fix: "use 1 to 65535",
        exitCode: 64)
    }
    return (host, port)
  }
}

/// IRC's rules for nicks and channel names.
enum ChatNames {
  static func checkNick(_ nick: String) throws(ChatError) {
    let special = "[]\\`_^{|}-"
    guard (1...30).contains(nick.count), let first = nick.first, first.isASCII,
      first.isLetter || special.contains(first),
      first != "-", nick.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || special.contains($0)) })
    else {
      throw ChatError(
        "--nick '\(Escaper.visible(nick, limit: 40))' is not a valid IRC nick",
        fix: "use up to 30 letters, digits or []\\`_^{|}-, not starting with a digit or -", exitCode: 64)
    }
  }

  /// The channel with `#` added when no channel prefix was given.
  static func channel(_ name: String) throws(ChatError) -> String {
    let full = "#&+!".contains(name.first ?? " ") ? name : "#" + name
    guard full.count >= 2, full.count <= 50,
      !full.contains(where: { $0 == " " || $0 == "," || $0 == "\u{7}" || $0.isNewline })
    else {
      throw ChatError(
        "--channel '\(Escaper.visible(name, limit: 60))' is not a valid channel name",
        fix: "use a name like #notify without spaces or commas", exitCode: 64)
    }
    return full
  }
}
