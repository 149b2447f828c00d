import NotifyTestSupport
import Testing

/// Tests against a real dunst under Xvfb on a private session bus (one per test). They run
/// one at a time: each starts processes, and the machine's cores are shared.
@Suite(.serialized, .needsHeadlessDesktop, .ownThreads)
struct DesktopIntegration {}
