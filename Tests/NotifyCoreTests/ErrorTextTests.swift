import NotifyCore
import Testing

/// Errors below the command line name no flags: each layer names the terms its own way.
@Suite("ErrorText: terms named per layer")
struct ErrorTextTests {
  @Test("the library names terms by their API names; a caller can name them its own way")
  func rendering() throws {
    let error = NotifyError(
      .invalidData, "\(term: .userInfo) is not valid JSON", fix: "see \(term: .stdoutSink)")
    #expect(error.description == "userInfo is not valid JSON: see the stdout sink")
    #expect(error.problem == "userInfo is not valid JSON")
    let flags = error.rendered { $0 == .userInfo ? "--user-info" : "--sink stdout" }
    #expect(flags == "--user-info is not valid JSON: see --sink stdout")
  }

  @Test("the core's own messages carry terms, not flags")
  func coreMessages() {
    let error = #expect(throws: NotifyError.self) { try Validator.userInfo("[1]") }
    #expect(error?.problem == "userInfo must be a JSON object, not an array")
    #expect(error?.description.contains("--") == false)
  }
}
