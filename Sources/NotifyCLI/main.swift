// Entry point; the command tree is in NotifyCommand.swift.
NotifyCommand.main()
