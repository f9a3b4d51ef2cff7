import Foundation
import StradaEngineGTK
import Testing

@testable import StradaHost

/// App definitions: what a valid one gives, one line per kind of mistake naming the key, the starter, and the
/// desktop entry `app install` writes.
@Suite struct AppDefinitionTests {
    static let valid = """
        {
          "id": "com.example.Notes", "name": "Notes", "start_url": "https://notes.example.com/",
          "allowed_origins": ["https://cdn.example.com"], "plugins": ["plugins", "/opt/notes/plugins"],
          "path_configuration": ["config/path.json", "https://notes.example.com/configurations/linux.json"],
          "user_agent_prefix": "Notes/2.1", "window": {"width": 1200, "height": 800}, "color_scheme": "dark"
        }
        """

    @Test func aValidDefinitionResolvesPathsAgainstItsFolder() throws {
        let app = try AppDefinition(json: Self.valid, path: "/srv/notes/app.json")
        #expect(app.id == "com.example.Notes" && app.name == "Notes")
        #expect(app.startURL == "https://notes.example.com/")
        #expect(app.allowedOrigins == ["https://cdn.example.com"])
        #expect(app.pluginDirectories == ["/srv/notes/plugins", "/opt/notes/plugins"])
        #expect(
            app.pathConfiguration == [
                "/srv/notes/config/path.json", "https://notes.example.com/configurations/linux.json",
            ])
        #expect(app.userAgentPrefix == "Notes/2.1")
        #expect(app.windowSize?.width == 1200 && app.windowSize?.height == 800)
        #expect(app.colorScheme == .dark && app.icon == nil)
        #expect(app.systemPlugins)
    }

    @Test func grantsSayWhatEachPluginMayDoFieldByField() throws {
        let text = #"""
            {"id": "com.example.N", "name": "N", "start_url": "https://a.example/",
             "grants": {"dev.example.maps": {"capabilities": ["controls", "open-uri"]},
                        "dev.example.pay": {"origins": ["https://pay.example:443/checkout"], "isolation": "sandbox"},
                        "dev.example.own": {"isolation": "in-process"}}}
            """#
        let app = try AppDefinition(json: text, path: "/srv/app.json")
        #expect(app.grants["dev.example.maps"] == .init(capabilities: [.controls, .openURI]))
        #expect(app.grants["dev.example.pay"]?.capabilities == nil, "a field left out keeps the manifest's word")
        #expect(app.grants["dev.example.pay"]?.origins == ["https://pay.example:443/checkout"])
        #expect(app.grants["dev.example.pay"]?.isolation == .sandbox)
        #expect(app.grants["dev.example.own"]?.isolation == .inProcess)
    }

    @Test func anAppCanAskForOnlyItsOwnPlugins() throws {
        let own = Self.valid.replacingOccurrences(of: #""plugins": ["#, with: #""system_plugins": false, "plugins": ["#)
        #expect(try AppDefinition(json: own, path: "/srv/notes/app.json").systemPlugins == false)
        let wrong = Self.valid.replacingOccurrences(
            of: #""plugins": ["#, with: #""system_plugins": "no", "plugins": ["#)
        #expect(throws: AppDefinitionError.self) { try AppDefinition(json: wrong, path: "/srv/notes/app.json") }
        do {
            _ = try AppDefinition(json: wrong, path: "/srv/notes/app.json")
        } catch {
            #expect(
                error.description.hasSuffix(
                    #""system_plugins" must be true or false (false: only the app's own plugins)"#))
        }
    }

    @Test(arguments: [
        ("{", "app.json: is not JSON"),
        ("[]", "app.json: must be a JSON object"),
        (#"{"name": "N", "start_url": "https://a.example/"}"#, "app.json: needs \"id\""),
        (#"{"id": "notes", "name": "N", "start_url": "https://a.example/"}"#, "\"id\" must be a reverse-DNS name"),
        (#"{"id": "com.1example.N", "name": "N", "start_url": "https://a.example/"}"#, "\"id\" must be a reverse-DNS"),
        (#"{"id": "com.example.N", "start_url": "https://a.example/"}"#, "needs \"name\""),
        (#"{"id": "com.example.N", "name": "N"}"#, "needs \"start_url\""),
        (#"{"id": "com.example.N", "name": "N", "start_url": "notes.example"}"#, "\"start_url\" must be an http(s)"),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "colour_scheme": "dark"}"#,
            "unknown key \"colour_scheme\"; did you mean \"color_scheme\"?"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "color_scheme": "blue"}"#,
            "\"color_scheme\" must be \"light\", \"dark\" or \"system\""
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "window": {"width": 10}}"#,
            "\"window\" must be {\"width\": …, \"height\": …}"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "plugins": [1]}"#,
            "\"plugins\"[0] must be a non-empty string"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "allowed_origins": ["x"]}"#,
            "\"allowed_origins\" has \"x\", not an origin"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "grants": []}"#,
            "\"grants\" must be an object like"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "grants": {"p": {"caps": []}}}"#,
            "\"grants\".\"p\" has an unknown key \"caps\" (known: capabilities, origins, isolation)"
        ),
        (
            #"{"id":"com.example.N","name":"N","start_url":"https://a.example/","#
                + #""grants":{"p":{"capabilities":["camera"]}}}"#,
            "unknown capability \"camera\" (known: controls, dialogs"
        ),
        (
            #"{"id":"com.example.N","name":"N","start_url":"https://a.example/","grants":{"p":{"isolation":"vm"}}}"#,
            "\"grants\".\"p\".\"isolation\" must be \"in-process\", \"process\" or \"sandbox\""
        ),
        (
            #"{"id":"com.example.N","name":"N","start_url":"https://a.example/","grants":{"p":{"origins":["app"]}}}"#,
            "\"grants\".\"p\".\"origins\" has \"app\", not an origin"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "icon": "notes.ico"}"#,
            "\"icon\" must be an .svg or .png file"
        ),
        (
            #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "icon": "missing.svg"}"#,
            "\"icon\" names /srv/missing.svg, which does not exist"
        ),
    ])
    func eachMistakeIsOneLineNamingTheKey(document: String, expected: String) {
        #expect {
            _ = try AppDefinition(json: document, path: "/srv/app.json")
        } throws: { error in
            let line = (error as? AppDefinitionError)?.description ?? ""
            return line.hasPrefix("/srv/app.json: ")
                && line.contains(expected.replacingOccurrences(of: "app.json: ", with: ""))
                && !line.contains("\n")
        }
    }

    @Test func idsAreReverseDNSAsGLibWantsThem() {
        for id in ["com.example.Notes", "dev.strada.Host", "org.gnome.Text_Editor", "a.b"] {
            #expect(AppDefinition.isValidID(id), "\(id)")
        }
        for id in ["notes", "com..example", "com.example.", "1com.example", "com.exämple.N", ".com.example"] {
            #expect(!AppDefinition.isValidID(id), "\(id)")
        }
    }

    @Test func theStarterIsAValidDefinition() throws {
        let app = try AppDefinition(json: AppDefinition.starter(id: "com.example.Notes"), path: "/tmp/app.json")
        #expect(app.id == "com.example.Notes" && app.name == "Notes")
        #expect(app.pathConfiguration == ["/tmp/path-configuration.json"])
    }

    @Test func theDesktopEntryRunsTheDefinitionAndNamesTheIcon() throws {
        let app = try AppDefinition(json: Self.valid, path: "/srv/my notes/app.json")
        let entry = AppInstaller(dataHome: "/home/u/.local/share").desktopEntry(for: app)
        #expect(entry.contains("\nName=Notes\n"))
        // The host on the PATH, not the binary that wrote the entry.
        #expect(entry.contains("\nExec=strada-host run --app \"/srv/my notes/app.json\" %u\n"))
        #expect(entry.contains("\nStartupWMClass=com.example.Notes\n"))
        #expect(entry.contains("\nCategories=Network;\n"))
        #expect(!entry.contains("Icon=") && !entry.contains("Keywords="))
        #expect(AppInstaller.quoted("a$b") == #""a\\$b""#)
    }

    /// The About window's, the primary menu's, developer mode's and the desktop entry's keys.
    static let desktop = """
        {
          "id": "com.example.Notes", "name": "Notes", "start_url": "https://notes.example.com/",
          "version": "2.1", "developer_name": "Example Ltd", "website": "https://notes.example.com/about",
          "license": "MIT", "developer": true,
          "menu": [{"title": "Help", "url": "https://notes.example.com/help"}, {"title": "Reload", "action": "reload"}],
          "categories": ["Office", "Calendar"], "keywords": ["notes", "memo"], "startup_wm_class": "notes"
        }
        """

    @Test func aDefinitionFillsAboutTheMenuAndTheDesktopEntry() throws {
        let app = try AppDefinition(json: Self.desktop, path: "/srv/notes/app.json")
        #expect(
            app.about
                == AboutInfo(
                    name: "Notes", version: "2.1", developer: "Example Ltd", website: "https://notes.example.com/about",
                    license: "MIT"))
        #expect(
            app.menu == [
                PrimaryMenu.Item(title: "Help", action: .visit("https://notes.example.com/help")),
                PrimaryMenu.Item(title: "Reload", action: .reload),
            ])
        #expect(app.developer)
        let entry = AppInstaller(dataHome: "/home/u/.local/share").desktopEntry(for: app)
        #expect(entry.contains("\nCategories=Office;Calendar;\n"))
        #expect(entry.contains("\nKeywords=notes;memo;\n"))
        #expect(entry.contains("\nStartupWMClass=notes\n"))
    }

    @Test(arguments: [
        (#""menu": [{"title": "Help"}]"#, #""menu"[0] must be {"title": …, "url": …} or {"title": …, "#),
        (#""menu": [{"title": "X", "action": "print"}]"#, #""menu"[0] has action "print"; the actions are about, "#),
        (#""menu": {"title": "X"}"#, #""menu" must be an array of items"#),
        (#""website": "notes.example.com""#, #""website" must be an http(s) URL"#),
        (#""developer": "yes""#, #""developer" must be true or false"#),
        (#""keywords": ["a;b"]"#, #""keywords" must be words without ";""#),
    ])
    func aMistakeInTheDesktopKeysNamesIt(_ fragment: String, _ message: String) {
        let text = #"{"id": "com.example.N", "name": "N", "start_url": "https://a.example/", "# + fragment + "}"
        do {
            _ = try AppDefinition(json: text, path: "app.json")
            Issue.record("accepted \(fragment)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: AppDefinitionTests.validator)))
    func theDesktopEntryPassesDesktopFileValidate() throws {
        let app = try AppDefinition(json: Self.desktop, path: "/srv/my notes/app.json")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).desktop").path
        try AppInstaller(dataHome: "/home/u/.local/share").desktopEntry(for: app)
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let validate = Process()
        validate.executableURL = URL(fileURLWithPath: Self.validator)
        validate.arguments = [file]
        let output = Pipe()
        validate.standardOutput = output
        validate.standardError = output
        try validate.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validate.waitUntilExit()
        #expect(validate.terminationStatus == 0 && said.isEmpty, "\(said)")
    }

    /// desktop-file-utils' validator (scripts/setup installs it; the test is skipped without it).
    static let validator = "/usr/bin/desktop-file-validate"
}
