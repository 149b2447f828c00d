// The chat client example: see ChatClientCommand and README.md in this folder.
await ChatClientCommand.main()
