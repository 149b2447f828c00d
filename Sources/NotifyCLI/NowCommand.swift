import ArgumentParser
import Foundation
import Notify
import NotifySound

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
    let notification = try content.notification(
      app: app, schedule: Schedule(fireDate: .instant(now)), now: now)
    let store = try store.open()
    let sink = try sink.makeSink(store: store)
    var delivery = Presenter.delivery(for: notification, now: now)
    let sound = SoundLibrary.resolve(notification)
    delivery.apply(sound)
    do {
      try sink.deliver(delivery)
      if let desktop = sink as? DesktopSink, !desktop.handlesSound(for: delivery) {
        _ = SoundPlayer.play(sound)
      }
    } catch let error as NotifyError {
      throw error
    } catch {
      throw NotifyError(
        .temporary, "the \(sink.name) sink could not show the notification (\(error))",
        fix: "try again, or use --sink stdout")
    }
    try store.recordPresented(delivery)
    if !(sink is StdoutSink) { Output.line(notification.id) }
  }
}

extension SinkChoice: ExpressibleByArgument {}

/// Builds the delivery for an immediate presentation.
enum Presenter {
  static func delivery(for notification: LocalNotification, now: Date) -> Delivery {
    Delivery(notification: notification, occurrence: 1, fireDate: now, deliveredAt: now, late: false)
  }
}
