import Foundation
import NotifyTestSupport

/// The `notify` command tree as the built binary describes it (`--experimental-dump-help`,
/// what swift-argument-parser's generate-manual reads to write the man pages): each
/// command's abstract, discussion and argument help, exactly as written in the source.
struct HelpCommand: CustomStringConvertible, Sendable {
  /// The subcommand path: [] for `notify`, ["sound", "check"] for `notify sound check`.
  var path: [String]
  var abstract: String
  var discussion: String
  /// The abstract and discussion of each argument, flag and option shown.
  var argumentTexts: [String]

  var description: String { (["notify"] + path).joined(separator: " ") }

  /// The discussion's example lines: those that start with a space, as written.
  var examples: [String] { discussion.split(separator: "\n").map(String.init).filter { $0.hasPrefix(" ") } }

  /// Every command but argument-parser's own `help`, root first.
  static let all: [HelpCommand] = {
    guard let result = try? CommandRunner().run(["--experimental-dump-help"]), result.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      let root = object["command"] as? [String: Any]
    else { return [] }
    var commands: [HelpCommand] = []
    func walk(_ node: [String: Any], _ path: [String]) {
      let arguments = (node["arguments"] as? [[String: Any]] ?? []).filter {
        $0["shouldDisplay"] as? Bool != false
      }
      commands.append(
        HelpCommand(
          path: path, abstract: node["abstract"] as? String ?? "",
          discussion: node["discussion"] as? String ?? "",
          argumentTexts: arguments.flatMap { [$0["abstract"] as? String, $0["discussion"] as? String] }
            .compactMap { $0 }.filter { !$0.isEmpty }))
      for child in node["subcommands"] as? [[String: Any]] ?? [] {
        guard let name = child["commandName"] as? String, name != "help" else { continue }
        walk(child, path + [name])
      }
    }
    walk(root, [])
    return commands
  }()
}
