// The chat client example: see ChatClientCommand and README.md in this folder.
@main
enum ChatClient {
  static func main() async {
    await ChatClientCommand.main()
  }
}
