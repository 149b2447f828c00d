import CSystemd

/// One method call a `BusServer` received: who sent it, what it asks, and the one answer
/// it gets (a reply or a named error), on the server's thread: during the handler, or
/// later (the call keeps its message, and the descriptors it carries, until it is dropped).
package struct BusCall {
  let message: BusMessage

  /// The interface called (`org.freedesktop.DBus.Properties`, ...), nil when the caller named none.
  package var interface: String? { sd_bus_message_get_interface(message.handle).map { String(cString: $0) } }
  /// The method called.
  package var member: String { sd_bus_message_get_member(message.handle).map { String(cString: $0) } ?? "" }
  /// The caller's unique name (`:1.42`).
  package var sender: String { message.sender ?? "" }
  /// The signature of the arguments (`saa{sv}`).
  package var signature: String {
    sd_bus_message_get_signature(message.handle, 1).map { String(cString: $0) } ?? ""
  }
  /// False when the caller said it wants no reply (`NO_REPLY_EXPECTED`).
  package var expectsReply: Bool { sd_bus_message_get_expect_reply(message.handle) > 0 }

  /// The arguments, read within `limits`.
  package func arguments(limits: BusReadLimits) throws(BusValueError) -> [BusValue] {
    try message.readValues(limits: limits)
  }

  /// Answers with `values`.
  package func reply(_ values: [BusValue]) throws(BusFailure) {
    try answer(values)?.send()
  }

  /// Answers with the D-Bus error `name` (`org.example.Error.NotFound`) and `text`.
  package func fail(_ name: String, _ text: String) throws(BusFailure) {
    try failure(name, text)?.send()
  }

  /// The reply with `values`, made now and sent later (`BusAnswer.send`); nil when the
  /// caller wants none.
  package func answer(_ values: [BusValue]) throws(BusFailure) -> BusAnswer? {
    guard expectsReply else { return nil }
    var reply: OpaquePointer? = nil
    try BusFailure.check(sd_bus_message_new_method_return(message.handle, &reply), "creating a reply")
    let answer = BusMessage(adopting: reply!)
    for value in values { try answer.append(value) }
    return BusAnswer(message: answer)
  }

  /// The error reply `name` with `text`, made now and sent later; nil when the caller
  /// wants none.
  package func failure(_ name: String, _ text: String) throws(BusFailure) -> BusAnswer? {
    guard expectsReply else { return nil }
    var error = notify_bus_error_null()
    defer { sd_bus_error_free(&error) }
    _ = sd_bus_error_set(&error, name, text)
    var reply: OpaquePointer? = nil
    try BusFailure.check(
      sd_bus_message_new_method_error(message.handle, &reply, &error), "creating an error reply")
    return BusAnswer(message: BusMessage(adopting: reply!))
  }
}

/// A reply made and not yet sent: a server that promises something in it (a write on the
/// disk) sends it once the promise holds.
package struct BusAnswer {
  let message: BusMessage

  /// Sends it on the connection the call came in on.
  package func send() throws(BusFailure) {
    try BusFailure.check(
      sd_bus_send(sd_bus_message_get_bus(message.handle), message.handle, nil), "sending a reply")
  }
}
