import Foundation
import NotifyCore

extension SQLiteStore {
  /// Stores a checked notification with copies of `sources` kept in the store's attachment
  /// folder: the copies are checked and made durable first, named in the same transaction
  /// as the row, and removed again when it is refused. What every writer of one
  /// notification goes through: the command, the library's center, the D-Bus service.
  public func schedule(_ checked: CheckedNotification, attaching sources: [AttachmentSource], zones: Zones)
    throws(NotifyError) -> ScheduleOutcome
  {
    let kept = try keep(sources, for: checked)
    do {
      let outcome = try schedule(kept, zones: zones)
      AttachmentFolder.commit(kept.notification.attachments)
      // What the replaced notification carried, or a discarded one.
      if !sources.isEmpty || outcome.discarded.contains(where: { !$0.notification.attachments.isEmpty }) {
        sweepAttachments()
      }
      return outcome
    } catch {
      AttachmentFolder.discard(kept.notification.attachments)
      throw error
    }
  }

  /// `checked` with copies of `sources` kept in the store's attachment folder (each checked
  /// first: nothing is kept when one is refused), their hidden names durable before a row
  /// names them.
  public func keep(_ sources: [AttachmentSource], for checked: CheckedNotification) throws(NotifyError)
    -> CheckedNotification
  {
    guard !sources.isEmpty else { return checked }
    let (app, id) = (checked.notification.app, checked.notification.id)
    let folder = attachmentFolder
    let token = AttachmentFolder.token()
    var copies: [NotificationAttachment] = []
    do {
      for (index, source) in sources.enumerated() {
        if let descriptor = source.descriptor {
          copies.append(
            try folder.keep(
              descriptor: descriptor, name: source.file, identifier: source.identifier ?? source.file,
              app: app, id: id, token: token, index: index))
        } else {
          copies.append(
            try folder.keep(
              source.file, identifier: source.identifier, app: app, id: id, token: token, index: index))
        }
      }
      let kept = try checked.attaching(copies)
      folder.synchronize(apps: [app])
      return kept
    } catch {
      AttachmentFolder.discard(copies)
      throw error
    }
  }
}
