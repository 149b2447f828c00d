import Foundation
import Notify
import ServiceLifecycle

// What the examples take as given: the app's own functions, state and services.

/// The app opens a conversation.
func open(conversation: String?) {}
/// The app sends a reply.
func send(_ text: String, to sender: String?) {}
/// Whether the user is typing in the app.
let userIsTyping = false
/// A service of the app, run beside notify's firing service.
struct ChatService: Service {
  func run() async throws {}
}
