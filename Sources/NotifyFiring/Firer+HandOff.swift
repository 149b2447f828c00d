import Foundation
import NotifyCore
import NotifySound

/// The one hand-off path, for fired, presented and released notifications alike: how a
/// notification is prepared (its sound checked again, the user's settings, quiet hours,
/// the buttons of its category, the app's presentation), the delivery built from it, and
/// the sink's answer.
extension Firer {
  /// How a notification will be handed over, worked out before its instant (file and store
  /// reads stay off the hand-off): its sound, the user's settings for its app, whether quiet
  /// hours hold it, and the store's state when it was claimed (`claimedAt`, `version`).
  struct Preparation {
    var sound: SoundResolution
    var settings: NotificationSettings
    var held: Bool
    var claimedAt: Date
    var version: StoreVersion?
    /// Whether a click reaches its app, its icon and desktop entry (`ClickReachability`);
    /// nil: not asked.
    var look: AppLook?
    /// The buttons it is shown with, from its app's categories as they are now.
    var category: CategoryResolution = .own
  }

  /// What the sink said to one delivery.
  enum SinkAnswer {
    /// It took it; the delivery carries the sink's note, the receipt its bubble.
    case taken(Delivery, DeliveryReceipt)
    /// It may show it although it failed (a timeout): never tried again (SPEC.md §6).
    case uncertain(Delivery, NotifyError)
    /// It refused it, and may take it if tried again.
    case refused(any Error)
    /// It cannot take deliveries now or any more.
    case fault(SinkFault)
  }

  /// Prepares `notification` under `settings`, quiet hours being `quiet` at `now`;
  /// `look` is what the claim's batch found of its app (asked now when nil), `categories`
  /// the app's registered categories (nil: unreadable; read only for a notification that
  /// names one).
  func preparation(
    _ notification: LocalNotification, settings: NotificationSettings, quiet: Bool, at now: Date,
    version: StoreVersion?, look: AppLook? = nil, categories: [NotificationCategory]? = []
  ) -> Preparation {
    Preparation(
      sound: sounds.resolve(notification), settings: settings,
      held: QuietRelease.holds(notification, quiet: quiet, settings: settings), claimedAt: now,
      version: version,
      look: look ?? options.clickReach?.look(app: notification.app, known: nil),
      category: CategoryResolution.resolve(notification, categories: categories))
  }

  /// The categories `app` has registered, read once per app when a notification of it
  /// names one; nil when they cannot be read (its notifications are shown without those
  /// buttons, and say why).
  func categories(app: String) -> [NotificationCategory]? {
    try? store.categories(app: app)
  }

  /// The categories of each app of `notifications` that names one, `known` (what a claim
  /// read) first: one read per app at most, none for notifications without a category.
  func categories(
    for notifications: [LocalNotification], known: [String: [NotificationCategory]]? = nil
  ) -> [String: [NotificationCategory]?] {
    var found: [String: [NotificationCategory]?] = [:]
    for notification in notifications where notification.categoryIdentifier != nil {
      let app = notification.app
      guard found[app] == nil else { continue }
      found[app] = .some(known?[app] ?? categories(app: app))
    }
    return found
  }

  /// Whether quiet hours (`read`, or read now) hold notifications at `now`. Unreadable quiet
  /// hours show the notification: nothing is held back by a read error.
  func isQuiet(_ read: QuietHours? = nil, at now: Date) -> Bool {
    (read ?? (try? store.quietHours()))?.isQuiet(at: now, in: clock.zones.local) ?? false
  }

  /// What the user allows `app`; unreadable settings allow everything.
  func settingsInForce(app: String) -> NotificationSettings {
    (try? store.settingsInForce(app: app)) ?? .allowAll
  }

  /// The delivery of one occurrence, as the sink is to be given it: everything the sink
  /// needs is in it (the bubble it replaces, whether a click reaches the app), so the sink
  /// reads nothing. A notification of a thread replaces its thread's bubble (`thread`, nil
  /// when none is on screen) rather than its own (`ThreadSummary`).
  func delivery(
    _ notification: LocalNotification, occurrence: Int, fireDate: Date, late: Bool, at now: Date,
    replacing bubble: ServerBubbleID?, thread: ThreadBubble? = nil, _ preparation: Preparation
  ) -> Delivery {
    var delivery = Delivery(
      notification: notification, occurrence: occurrence, fireDate: fireDate, deliveredAt: now, late: late)
    // What quiet hours hold keeps its category unresolved: it is looked up when shown.
    if !preparation.held { delivery.apply(preparation.category) }
    let notification = delivery.notification
    delivery.apply(preparation.sound)
    if notification.threadIdentifier != nil {
      delivery.thread = thread
      delivery.replacing = thread?.bubble
    } else {
      delivery.replacing = bubble
    }
    if let look = preparation.look {
      delivery.offersDefaultAction = ClickRoute.defaultActionReaches(notification, appReached: look.reaches)
      delivery.appIcon = look.icon
      delivery.desktopEntry = look.desktopEntry
    }
    if let presentation = options.presentation { delivery.presentation = presentation(notification) }
    // A passive notification makes no sound (UNNotificationInterruptionLevel.passive).
    if notification.interruptionLevel == .passive { delivery.presentation.remove(.sound) }
    delivery.apply(preparation.settings)
    delivery.held = preparation.held
    // What could wake the machine for it: this firer's route, or `off` when the user does
    // not let its app wake the machine.
    if notification.wake { delivery.wake = preparation.settings.wake ? wakeAbility.historyName : "off" }
    return delivery
  }

  /// Hands `delivery` to the sink once, to be shown once `gate` opens.
  func hand(_ delivery: Delivery, after gate: DeliveryGate = .open) -> SinkAnswer {
    answer(Result { try sink.deliver(delivery, after: gate) }, to: delivery)
  }

  /// What the sink's `outcome` of showing `delivery` is.
  func answer(_ outcome: Result<DeliveryReceipt, any Error>, to delivery: Delivery) -> SinkAnswer {
    var delivery = delivery
    do {
      let receipt = try outcome.get()
      delivery.note = receipt.note
      return .taken(delivery, receipt)
    } catch let fault as SinkFault {
      return .fault(fault)
    } catch let error as NotifyError where error.mayHaveBeenShown {
      delivery.note = error.description
      logger.warning(
        "\(error)",
        metadata: [LogKey.app: "\(delivery.notification.app)", LogKey.id: "\(delivery.notification.id)"])
      return .uncertain(delivery, error)
    } catch {
      return .refused(error)
    }
  }

  /// Shows `notification` at once (`notify now`, an app's `present`), through the same
  /// preparation and hand-off as a fired one, and records it: `presented` in history, or
  /// `held` when quiet hours hold it (shown when they end, by whichever firer runs then).
  /// Does not count toward the 64-pending limit. Throws what the sink said when it did not
  /// take it: a sink fault as unavailable, a timeout as it is.
  public func present(_ notification: LocalNotification, replacing bubble: ServerBubbleID? = nil)
    throws(NotifyError) -> Delivery
  {
    let now = clock.now()
    let settings = try Firer.storeCall { try store.settingsInForce(app: notification.app) }
    let quiet = try Firer.storeCall { try store.quietHours() }.isQuiet(at: now, in: clock.zones.local)
    let thread = try notification.threadIdentifier.flatMap { thread throws(NotifyError) in
      try Firer.storeCall { try store.threadBubble(app: notification.app, thread: thread, now: now) }
    }
    let categories = notification.categoryIdentifier == nil ? [] : categories(app: notification.app)
    let delivery = delivery(
      notification, occurrence: 1, fireDate: now, late: false, at: now, replacing: bubble, thread: thread,
      preparation(
        notification, settings: settings, quiet: quiet, at: now, version: nil, categories: categories))
    if delivery.held {
      try Firer.storeCall { try store.recordHeld(delivery) }
      return delivery
    }
    switch hand(delivery) {
    case .taken(let shown, let receipt):
      options.handedOver?(shown)
      try Firer.storeCall { try store.recordPresented(shown, bubble: receipt.bubble) }
      return shown
    case .uncertain(_, let error):
      throw error
    case .fault(let fault):
      throw NotifyError(fault)
    case .refused(let error as NotifyError):
      throw error
    case .refused(let error):
      throw NotifyError(
        .temporary, "the \(sink.name) sink could not show the notification (\(error))",
        fix: "try again, or use \(term: .stdoutSink)")
    }
  }
}
