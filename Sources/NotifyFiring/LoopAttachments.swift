/// Several things attached to one loop as one (`FiringLoop` takes one): the desktop sink,
/// the D-Bus service and the calendars in `notify daemon`, the sink and the app's calendars
/// in an app's firing service. Attached in order, detached in reverse.
package final class LoopAttachments: LoopAttachable {
  private let members: [any LoopAttachable]

  /// The non-nil ones of `members`.
  package init(_ members: (any LoopAttachable)?...) {
    self.members = members.compactMap { $0 }
  }

  package func attach(to event: OpaquePointer, priority: Int32) throws {
    for member in members { try member.attach(to: event, priority: priority) }
  }

  package func detach() {
    for member in members.reversed() { member.detach() }
  }
}
