import Foundation

/// Something with events of its own to dispatch on the firing loop's sd-event loop, such
/// as the desktop sink's bus connection (`ActionInvoked`, `NotificationClosed`): the loop
/// attaches it when it starts and detaches it when it stops, as the sink's owner.
public protocol LoopAttachable: AnyObject {
  /// Dispatches on `event` (an `sd_event *`) from now on.
  func attach(to event: OpaquePointer, priority: Int32) throws
  /// Stops dispatching on the loop given to `attach`.
  func detach()
}
