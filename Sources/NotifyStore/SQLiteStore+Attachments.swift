import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// Where this store keeps attachments.
  public var attachmentFolder: AttachmentFolder { AttachmentFolder(storePath: path) }

  /// The kept attachment copies a notification still uses: of pending notifications, of
  /// ones on screen (the `delivered` event of a bubble a notification server holds:
  /// `desktop_id`, until it is reported closed; presented ones too), and of the content kept
  /// for later (held for quiet hours, bubbles left for another process, responses an app has
  /// not taken), and the occurrences claimed but not yet handed over (their snapshot). A
  /// bubble left longer ago than `ShownBubble.takeOverWindow` before `now` is
  /// no one's to take over any more: what keeps its copy then is its delivery (history and
  /// the bubble's id), as for any bubble on screen, so that retention can drop it.
  public func attachmentsInUse(now: Date = Date()) throws(NotifyError) -> Set<String> {
    try read { db in
      let texts = try String.fetchAll(
        db,
        sql: """
          SELECT attachments FROM notification WHERE attachments IS NOT NULL AND next_fire_at IS NOT NULL
          UNION ALL SELECT json_extract(e.detail, '$.attachments') FROM desktop_id AS d
            JOIN event AS e ON e.seq = (
              SELECT max(seq) FROM event
              WHERE app = d.app AND notification_id = d.id AND kind IN ('delivered', 'dismissed'))
            WHERE e.kind = 'delivered' AND json_extract(e.detail, '$.attachments') IS NOT NULL
          UNION ALL SELECT attachments FROM held WHERE attachments IS NOT NULL
          UNION ALL SELECT attachments FROM left_bubble WHERE attachments IS NOT NULL AND at >= ?
          UNION ALL SELECT attachments FROM response WHERE attachments IS NOT NULL
          UNION ALL SELECT json_extract(snapshot, '$.attachments') FROM claim
            WHERE json_extract(snapshot, '$.attachments') IS NOT NULL
          """, arguments: [Millis.from(now - ShownBubble.takeOverWindow)])
      return Set(texts.flatMap { NotificationAttachment.fromStoreText($0).map(\.file) })
    }
  }

  /// Removes the kept copies nothing uses any more (`attachmentsInUse`): after a cancel, a
  /// replacement, a run of deliveries. A store that cannot be read removes nothing. The
  /// folder is listed before the store is read (`AttachmentFolder.sweep(now:inUse:)`).
  @discardableResult
  public func sweepAttachments(now: Date = Date()) -> Int {
    guard FileManager.default.fileExists(atPath: attachmentFolder.path) else { return 0 }
    return attachmentFolder.sweep(now: now) { try? attachmentsInUse(now: now) }
  }
}
