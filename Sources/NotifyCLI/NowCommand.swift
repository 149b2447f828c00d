import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify now`: delivers at once (`presentLocalNotificationNow`).
struct NowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "now", _superCommandName: "notify",
    abstract: "Deliver a notification at once; prints its id.",
    discussion: """
      With --sink stdout the delivery line (which carries the id) is the output, so that \
      stdout stays valid JSON Lines.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption
  @OptionGroup var content: NotificationOptions

  @Option(name: .long, help: "auto (desktop when a server answers, else stdout), desktop or stdout.")
  var sink: SinkChoice = .auto

  func run() throws {
    let now = SystemClock().now()
    let app = try appOption.resolve()
    let checked = try content.notification(app: app, schedule: Schedule(fireDate: .instant(now)), now: now)
    let notification = checked.notification
    let store = try store.open()
    let center = try LocalNotificationCenter(app: app, store: store, sink: try sink.makeSink())
    let delivery = try center.ownStore.present(checked, attaching: content.attachmentSources)
    if delivery.held {
      Output.warning(
        "quiet hours are on: '\(notification.id)' is held and shown when they end (notify quiet)")
    }
    if let note = delivery.categoryNote { Output.warning(Output.safe(note)) }
    if center.sinkName != "stdout" { Output.line(notification.id) }
  }
}

extension SinkChoice: ExpressibleByArgument {}
