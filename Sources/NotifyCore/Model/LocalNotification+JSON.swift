import Foundation

extension LocalNotification {
  /// The notification fields in SPEC.md §5 order, with `fireDate` the given instant.
  public func jsonRecord(fireDate: Date?) -> JSONRecord {
    var r = JSONRecord(capacity: 22)
    appendFields(to: &r, fireDate: fireDate)
    return r
  }

  /// Appends the notification fields in SPEC.md §5 order to `r`; `sound` replaces the
  /// notification's own when a delivery substituted it.
  func appendFields(to r: inout JSONRecord, fireDate: Date?, sound: SoundName? = nil) {
    r.set("id", id)
    r.set("app", app)
    r.set("title", title)
    r.set("subtitle", subtitle)
    r.set("body", body)
    r.set("bodyMarkup", .bool(bodyMarkup))
    r.set("action", action)
    r.set("launchImage", launchImage)
    r.set("sound", (sound ?? self.sound).name)
    r.set("badge", badge)
    r.set("userInfo", .object(userInfo))
    r.set("urgency", urgency.rawValue)
    r.set("actions", NotificationAction.jsonArray(actions))
    r.set("categoryIdentifier", categoryIdentifier)
    r.set("interruptionLevel", interruptionLevel.rawValue)
    r.set("threadIdentifier", threadIdentifier)
    r.set("threadSummary", threadSummary)
    r.set("attachments", NotificationAttachment.jsonArray(attachments))
    r.set("realert", realert?.jsonValue ?? .null)
    r.set("wake", .bool(wake))
    r.set("expireLate", expireLate.map { .int(Int64($0.rounded())) } ?? .null)
    r.set("fireDate", fireDate.map { RFC3339.string(from: $0) })
    switch schedule.fireDate {
    case .instant:
      r.set("timeZone", .null)
      r.set("wallClock", .null)
    case .wallClock(let wall, let zone):
      r.set("timeZone", zone.identifier)
      r.set("wallClock", wall.iso8601)
    }
    r.set("repeat", schedule.repeatInterval?.rawValue)
    r.set("rule", schedule.rule?.ruleText)
    r.set("except", schedule.rule.map { .array($0.exclusions.map { .string($0.isoText) }) } ?? .null)
    // A rule carries its end: COUNT and an instant UNTIL show as repeatCount and until.
    r.set("repeatCount", schedule.repeatCount ?? schedule.rule?.count)
    var until = schedule.until
    if until == nil, case .instant(let date)? = schedule.rule?.until { until = date }
    r.set("until", until.map { RFC3339.string(from: $0) })
    r.set("deliveredCount", deliveredCount)
    r.set("createdAt", RFC3339.string(from: createdAt))
  }
}

extension StoredNotification {
  /// The spec's notification JSON: `fireDate` is the next fire instant; a snoozed copy
  /// adds `snoozedOccurrence`, a re-alert `realertNumber` and `realertOccurrence`.
  public var jsonRecord: JSONRecord {
    var r = notification.jsonRecord(fireDate: nextFireDate)
    if let number = realertNumber {
      r.set("realertNumber", number)
      r.set("realertOccurrence", snoozedOccurrence)
    } else if let snoozedOccurrence {
      r.set("snoozedOccurrence", snoozedOccurrence)
    }
    return r
  }
}

extension Delivery {
  /// The stdout sink's JSON line (SPEC.md §5 "Stdout sink").
  public var jsonRecord: JSONRecord {
    var r = JSONRecord(capacity: 28)
    r.set("event", "delivered")
    notification.appendFields(to: &r, fireDate: fireDate, sound: sound)
    r.set("deliveredAt", RFC3339.string(from: deliveredAt, milliseconds: true))
    r.set("late", .bool(late))
    r.set("occurrence", occurrence)
    if let soundRequested {
      r.set("soundRequested", soundRequested)
      r.set("soundNote", soundNote)
    }
    return r
  }
}

extension HistoryEvent {
  /// One history entry as JSON.
  public var jsonRecord: JSONRecord {
    var r = JSONRecord()
    r.set("event", kind.rawValue)
    r.set("at", RFC3339.string(from: at, milliseconds: true))
    r.set("app", app)
    r.set("id", notificationID)
    r.set("reason", reason)
    r.set("occurrence", occurrence)
    r.set("fireDate", fireDate.map { RFC3339.string(from: $0) })
    r.set("late", late.map(JSONValue.bool) ?? .null)
    if let soundRequested {
      r.set("soundRequested", soundRequested)
      r.set("soundNote", soundNote)
    }
    for key in detail.keys.sorted() { r.set(key, detail[key]!) }
    return r
  }
}
