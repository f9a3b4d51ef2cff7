import ArgumentParser

/// `strada-host`: runs web apps with native components loaded from plugins.
@main
struct StradaHost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strada-host",
        abstract: "Runs a Strada web app in a WebKitGTK window with native components loaded from plugins.",
        subcommands: [Run.self, Plugin.self]
    )
}
