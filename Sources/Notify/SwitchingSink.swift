import NotifyCore

/// A sink that moves its deliveries between sinks as it goes (`--sink auto`: the desktop
/// while a notification server is on the bus, stdout while none is), and says so.
protocol SwitchingSink: DeliverySink {
  /// Called with the new `name` when deliveries switch, on the thread that heard it.
  var onChange: ((String) -> Void)? { get set }
}
