import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore

/// What the desktop's answers do, the same for every way in: each click and close is
/// recorded in history, and a click goes back to the app (`ClickRoute`): to the app in
/// this process, to a running process of the app (which reads it from the store), or by
/// opening the app from its desktop entry with the response waiting in the store.
/// History says which (`detail.opened`: `running`, `exec`, `dbus`) or why nothing was
/// opened (`detail.notOpened`).
struct InteractionRouter: ClickReachability {
  let store: SQLiteStore
  let clock: any NotifyClock
  /// The app this process is (an embedding app's center), nil for the daemon and `fire-due`.
  let hostApp: String?
  let launcher: AppLauncher
  let logger = NotifyLogging.logger("notify.desktop")

  /// Records `event` and, for a click, brings the app back (or snoozes the notification).
  /// Runs on the loop that heard the signal, as the sinks' owner. `desktop` is the desktop
  /// sink that heard it (nil for the portal's), through which a D-Bus-activatable app is
  /// launched. Returns true when it
  /// changed what is pending (a snooze), so that a firer re-arms.
  @discardableResult
  func handle(_ event: DesktopEvent, desktop: DesktopSink?) -> Bool {
    let now = clock.now()
    var history = HistoryEvent(event, at: now)
    if case .activated(let actionKey) = event.kind {
      // A reply is kept as long as a body may be; history says when it was cut.
      let reply = event.userText.map(NotificationResponse.keptReply)
      let shown = event.shownNotification(at: now)
      let online = Set(((try? store.presences(app: event.app)) ?? []).map(\.app))
      let route = ClickRoute.decide(
        app: event.app, actionKey: actionKey, action: shown.action(forKey: actionKey),
        replied: reply != nil,
        hostApp: hostApp, onlineApps: online)
      // The token the server gave for the app to raise its window (xdg-activation): the
      // D-Bus service's `Activated` signal carries it from here.
      if let token = event.activationToken { history.detail["activationToken"] = .string(token) }
      // The reply is the user's content: history keeps it (the store is 0600), logs never.
      if let reply {
        history.detail["text"] = .string(reply.text)
        if let count = reply.originalCount {
          history.detail["truncated"] = .string(
            "the reply had \(count) characters; the first \(reply.text.count) are kept")
        }
      }
      // What the app reads when it did not hear the click itself (launched, or later).
      let response = NotificationResponse(
        notification: shown, actionKey: actionKey, occurrence: event.occurrence,
        activationToken: event.activationToken, date: now, userText: reply?.text)
      switch route {
      case .snooze(let seconds):
        return snooze(event, shown, seconds: seconds, at: now)
      case .thisProcess, .runningApp:
        history.detail["opened"] = .string("running")
      case .waitForApp:
        do throws(NotifyError) {
          _ = try store.leave(response, launching: false)
          history.detail["notOpened"] = .string(
            "the app is not running and the action does not open it: the response waits for the app")
        } catch {
          history.detail["notOpened"] = .string(
            "the app is not running; the response could not be kept: \(error)")
        }
      case .launch:
        switch launch(response, desktop: desktop) {
        case .success(let (how, entry)):
          history.detail["opened"] = .string(how)
          history.detail["desktopEntry"] = .string(entry)
        case .failure(let refusal):
          history.detail["notOpened"] = .string(
            keep(response, afterFailedLaunch: actionKey)
              ? "\(refusal); the response waits for the app (notify responses)" : refusal.description)
          logger.notice(
            "a click opened nothing: \(refusal)",
            metadata: [LogKey.id: "\(event.id)", LogKey.app: "\(event.app)"])
        }
      }
    }
    do {
      try store.record(history)
    } catch {
      logger.error(
        "could not record an activation or dismissal: \(error)",
        metadata: [LogKey.id: "\(event.id)", LogKey.app: "\(event.app)"])
    }
    return false
  }

  /// Whether a click on a bubble of `app` can reach it now, whatever the notification asks
  /// (`ClickRoute.defaultActionReaches`): a process of it is online, or its desktop entry
  /// launches it. Asked once per app per claim batch with what the claim read (`known`), so
  /// that the hand-off only reads `Delivery.offersDefaultAction`; without it (a `present`,
  /// a release of what quiet hours held) the store is read here.
  func reaches(app: String, known: AppReach?) -> Bool {
    if isOnline(app, known: known) { return true }
    guard case .success = launcher.plan(app: app, entryName: entryName(app, known: known)) else {
      return false
    }
    return true
  }

  /// Whether a process of `app` is online, as the claim read it or the store says now.
  private func isOnline(_ app: String, known: AppReach?) -> Bool {
    known?.online ?? ((try? store.presences(app: app)) ?? []).contains { $0.app == app }
  }

  /// The desktop entry configured for `app`, as the claim read it or the store says now.
  /// Unreadable settings: the entry's default name, as a click would find it.
  private func entryName(_ app: String, known: AppReach?) -> String? {
    known.map(\.desktopEntry) ?? ((try? store.desktopEntry(app: app)) ?? nil)
  }

  /// Whether a click reaches `app`, and its desktop entry's icon and id: one lookup of the
  /// entry, which must stay inside its folder (`AppLauncher.plan`).
  func look(app: String, known: AppReach?) -> AppLook {
    let entryName = entryName(app, known: known)
    guard case .success(let plan) = launcher.plan(app: app, entryName: entryName) else {
      return AppLook(reaches: isOnline(app, known: known), icon: nil, desktopEntry: entryName ?? app)
    }
    return AppLook(reaches: true, icon: plan.icon, desktopEntry: entryName ?? app)
  }

  /// Whether a click on `notification` itself can reach its app now: `reaches(app:known:)`,
  /// or the notification asks for a response.
  func offersDefaultAction(for notification: LocalNotification) -> Bool {
    ClickRoute.defaultActionReaches(notification, appReached: reaches(app: notification.app, known: nil))
  }

  /// Leaves `response` waiting for its app when the app could not be opened and the click
  /// asks for that (`ClickRoute.keepsResponse`); true when it waits.
  private func keep(_ response: NotificationResponse, afterFailedLaunch actionKey: String) -> Bool {
    guard ClickRoute.keepsResponse(ofFailedLaunch: actionKey, on: response.notification) else { return false }
    do throws(NotifyError) {
      _ = try store.leave(response, launching: false)
      return true
    } catch {
      logger.error(
        "could not keep a response for the app: \(error)",
        metadata: [LogKey.id: "\(response.notification.id)", LogKey.app: "\(response.notification.app)"])
      return false
    }
  }

  /// Stores the snoozed copy (history records `snoozed`); a failure is logged and
  /// recorded as the click it was.
  private func snooze(_ event: DesktopEvent, _ shown: LocalNotification, seconds: Int, at now: Date) -> Bool {
    let metadata: Logger.Metadata = [LogKey.id: "\(event.id)", LogKey.app: "\(event.app)"]
    do throws(NotifyError) {
      let outcome = try store.snooze(shown, occurrence: event.occurrence, seconds: seconds, at: now)
      logger.info("snoozed for \(seconds) s", metadata: metadata)
      for discarded in outcome.discarded {
        logger.notice(
          "the 64-pending limit discarded a notification to make room for a snooze",
          metadata: [LogKey.id: "\(discarded.notification.id)", LogKey.app: "\(event.app)"])
      }
      return true
    } catch {
      if error.kind == .notTakenEffect {
        logger.notice("snooze refused: \(error)", metadata: metadata)
      } else {
        logger.error("could not snooze: \(error)", metadata: metadata)
      }
      var history = HistoryEvent(event, at: now)
      history.detail["notSnoozed"] = .string("\(error)")
      try? store.record(history)
      return false
    }
  }

  /// Leaves the response in the store, then opens the app; takes the response back when
  /// the app could not be opened.
  private func launch(_ response: NotificationResponse, desktop: DesktopSink?)
    -> Result<(String, String), LaunchRefusal>
  {
    let app = response.notification.app
    let entryName: String?
    do throws(NotifyError) {
      entryName = try store.desktopEntry(app: app)
    } catch {
      return .failure(LaunchRefusal("cannot read the app's settings: \(error)"))
    }
    let plan: AppLauncher.Plan
    switch launcher.plan(app: app, entryName: entryName) {
    case .success(let found): plan = found
    case .failure(let refusal): return .failure(refusal)
    }
    let key: Int64
    do throws(NotifyError) {
      key = try store.leave(response)
    } catch {
      return .failure(LaunchRefusal("cannot leave the response in the store: \(error)"))
    }
    switch launcher.perform(plan, response: response, desktop: desktop) {
    case .success(let how):
      logger.info(
        "opened the app from \(plan.entryPath) (\(how))",
        metadata: [LogKey.id: "\(response.notification.id)", LogKey.app: "\(app)"])
      return .success((how, plan.entryPath))
    case .failure(let refusal):
      try? store.withdrawResponse(key)
      return .failure(refusal)
    }
  }
}
