import ArgumentParser
import Foundation
import StradaHost

/// `strada-host app …`: app definitions and the desktop's launcher.
struct App: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe an app in a definition file and put it in the desktop's launcher.",
        subcommands: [New.self, Install.self, Uninstall.self])

    /// `app new <id>`: a starter definition to edit.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a starter app definition.")

        @Argument(help: "The app's id, reverse-DNS (com.example.Notes).")
        var id: String

        @Option(name: .shortAndLong, help: "Where to write it (default: <id>.json here).")
        var output: String?

        func validate() throws {
            guard AppDefinition.isValidID(id) else {
                throw ValidationError("\(id): not a reverse-DNS id; write it like com.example.Notes")
            }
        }

        func run() throws {
            let file = output ?? "\(id).json"
            guard !FileManager.default.fileExists(atPath: file) else {
                throw ValidationError("\(file) exists; choose another file with --output")
            }
            try AppDefinition.starter(id: id).write(toFile: file, atomically: true, encoding: .utf8)
            print("wrote \(file): edit start_url, then `strada-host run --app \(file)`")
        }
    }

    /// `app install <file>`: a desktop entry and icon for the app.
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the app to the desktop's launcher (a .desktop entry and its icon under $XDG_DATA_HOME).")

        @Argument(help: "The app definition.")
        var definition: String

        func run() throws {
            let app: AppDefinition
            do { app = try AppDefinition(contentsOf: definition) } catch { throw ValidationError(error.description) }
            let written = try AppInstaller().install(app)
            for file in written { print("wrote \(file)") }
        }
    }

    /// `app uninstall <file or id>`.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the app from the desktop's launcher.")

        @Argument(help: "The app definition, or the app's id.")
        var app: String

        func run() throws {
            let id: String
            if AppDefinition.isValidID(app), !FileManager.default.fileExists(atPath: app) {
                id = app
            } else {
                do { id = try AppDefinition(contentsOf: app).id } catch { throw ValidationError(error.description) }
            }
            let removed = try AppInstaller().uninstall(id: id)
            if removed.isEmpty { print("\(id) was not installed") }
            for file in removed { print("removed \(file)") }
        }
    }
}
