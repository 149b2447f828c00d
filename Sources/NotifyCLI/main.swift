import Foundation

// Arguments are checked for valid UTF-8 before Swift decodes them: `CommandLine.arguments`
// would silently repair bad bytes to U+FFFD and the text would not be what the user sent.
if let bad = CLIEntry.firstInvalidUTF8Argument() {
  CLIEntry.fail(
    NotifyErrorText.invalidUTF8(argument: bad))
}
CLIEntry.main()
