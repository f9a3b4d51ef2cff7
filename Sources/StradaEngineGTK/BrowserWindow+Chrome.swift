import CWebKitGTK
package import StradaCore

/// What makes the window an app's rather than a browser's, the GNOME way: the primary menu with About and
/// Keyboard Shortcuts (the main window's), Ctrl+Q, Ctrl+W and Ctrl+?, a context menu fit for an app
/// (``ContextMenuPolicy``), and WebKit's inspector in developer mode only.
extension BrowserWindow {
    /// Installs the app's chrome. `menu`: the primary menu (the main window's; `nil` for a modal), its items'
    /// actions going to `onMenuAction` except About and Keyboard Shortcuts, which the window shows itself.
    /// `developer`: the inspector on F12 and Ctrl+Shift+I, and "Inspect Element" in the context menu.
    package func installChrome(
        menu: PrimaryMenu?, about: AboutInfo, developer: Bool,
        onMenuAction: @escaping @MainActor (PrimaryMenu.Action) -> Void
    ) {
        chromeDeveloperMode = developer
        if let menu {
            controls.installPrimaryMenu(menu) { [weak self] item in
                switch item.action {
                case .about: self?.controls.presentAbout(about)
                case .shortcuts: self?.controls.presentShortcuts(developer: developer)
                case .quit: self?.onPageEvent?(.quitRequested)
                case .closeWindow: self?.close()
                default: onMenuAction(item.action)
                }
            }
        }
        onTrigger(keys: WindowShortcuts.quit.keys.joined(separator: "|"), .quitRequested)
        onKeys(WindowShortcuts.closeWindow) { window in window.close() }
        onKeys(WindowShortcuts.showShortcuts) { window in window.controls.presentShortcuts(developer: developer) }
        strada_set_developer_extras(webView.view, developer ? 1 : 0)
        if developer { onKeys(WindowShortcuts.inspector) { window in strada_show_inspector(window.webView.view) } }
        reportInspector()  // also without developer mode: then it never opens, and automation can tell
        installContextMenu()
    }

    /// Closes the window as its close button would (a modal is dismissed, the main window ends the app).
    package func close() { gtk_window_close(strada_gtk_window(window)) }

    /// Reports WebKit's inspector to automation as control `page.inspector` (kind `inspector`) while it is open.
    private func reportInspector() {
        strada_connect_inspector(
            webView.view,
            { shown, data in
                guard let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated {
                    let snapshot = ControlSnapshot(id: "page.inspector", kind: "inspector", properties: [:])
                    guard (shown != 0) != window.controls.inspectorOpen else { return }
                    window.controls.inspectorOpen = shown != 0
                    window.controls.observer?(shown != 0 ? .added(snapshot) : .removed(id: snapshot.id))
                }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` when one of `shortcut`'s keys is pressed in this window.
    private func onKeys(_ shortcut: WindowShortcuts.Shortcut, _ body: @escaping @MainActor (BrowserWindow) -> Void) {
        final class Box: @unchecked Sendable {  // created and used on the main thread
            weak var window: BrowserWindow?
            let body: @MainActor (BrowserWindow) -> Void
            init(_ window: BrowserWindow, _ body: @escaping @MainActor (BrowserWindow) -> Void) {
                self.window = window
                self.body = body
            }
        }
        let box = Unmanaged.passRetained(Box(self, body)).toOpaque()
        strada_install_trigger(
            window, shortcut.keys.joined(separator: "|"), 0,
            { data in
                guard let data else { return }
                let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { if let window = box.window { box.body(window) } }
            }, box, { data in data.map { Unmanaged<Box>.fromOpaque($0).release() } })
    }

    /// WebKit's context menu, cut to what an app keeps (``ContextMenuPolicy``) and reported to automation as
    /// control `page.context-menu` (kind `context-menu`: `items`, the action names shown, and `link`) while
    /// it is shown. "Open Link in Browser" opens the link with ``openInBrowser(_:)``.
    private func installContextMenu() {
        strada_connect_context_menu(
            webView.view,
            { actions, count, link, keep, data in
                guard let data, let keep else { return 0 }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let items = (0..<Int(count)).map { BrowserWindow.contextMenuAction(actions?[$0] ?? 0) }
                let url = link.map { String(cString: $0) }
                return MainActor.assumeIsolated {
                    let developer = window.chromeDeveloperMode
                    let decision = ContextMenuPolicy.decide(items, link: url != nil, developer: developer)
                    for (index, kept) in decision.keep.enumerated() { keep[index] = kept ? 1 : 0 }
                    let shown = ContextMenuPolicy.shown(items, link: url != nil, developer: developer)
                    var properties: JSONObject = ["items": .array(shown.map { .string($0.rawValue) })]
                    if let url { properties["link"] = .string(url) }
                    let snapshot = ControlSnapshot(
                        id: "page.context-menu", kind: "context-menu", properties: properties)
                    window.controls.contextMenu = snapshot
                    window.controls.observer?(.added(snapshot))
                    return decision.addOpenInBrowser ? 1 : 0
                }
            },
            { link, data in
                guard let data, let link else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let url = String(cString: link)
                MainActor.assumeIsolated { window.openInBrowser(url) }
            },
            { data in
                guard let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated {
                    guard window.controls.contextMenu != nil else { return }
                    window.controls.contextMenu = nil
                    window.controls.observer?(.removed(id: "page.context-menu"))
                }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// WebKit's stock action `raw` by what it does.
    private nonisolated static func contextMenuAction(_ raw: Int32) -> ContextMenuPolicy.Action {
        let actions: [WebKitContextMenuAction: ContextMenuPolicy.Action] = [
            WEBKIT_CONTEXT_MENU_ACTION_NO_ACTION: .separator, WEBKIT_CONTEXT_MENU_ACTION_OPEN_LINK: .openLink,
            WEBKIT_CONTEXT_MENU_ACTION_OPEN_LINK_IN_NEW_WINDOW: .openLinkInNewWindow,
            WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_LINK_TO_DISK: .downloadLink,
            WEBKIT_CONTEXT_MENU_ACTION_COPY_LINK_TO_CLIPBOARD: .copyLink,
            WEBKIT_CONTEXT_MENU_ACTION_OPEN_IMAGE_IN_NEW_WINDOW: .openImageInNewWindow,
            WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_IMAGE_TO_DISK: .downloadImage,
            WEBKIT_CONTEXT_MENU_ACTION_COPY_IMAGE_TO_CLIPBOARD: .copyImage,
            WEBKIT_CONTEXT_MENU_ACTION_COPY_IMAGE_URL_TO_CLIPBOARD: .copyImageAddress,
            WEBKIT_CONTEXT_MENU_ACTION_OPEN_FRAME_IN_NEW_WINDOW: .openFrameInNewWindow,
            WEBKIT_CONTEXT_MENU_ACTION_GO_BACK: .back, WEBKIT_CONTEXT_MENU_ACTION_GO_FORWARD: .forward,
            WEBKIT_CONTEXT_MENU_ACTION_STOP: .stop, WEBKIT_CONTEXT_MENU_ACTION_RELOAD: .reload,
            WEBKIT_CONTEXT_MENU_ACTION_COPY: .copy, WEBKIT_CONTEXT_MENU_ACTION_CUT: .cut,
            WEBKIT_CONTEXT_MENU_ACTION_PASTE: .paste, WEBKIT_CONTEXT_MENU_ACTION_DELETE: .delete,
            WEBKIT_CONTEXT_MENU_ACTION_SELECT_ALL: .selectAll, WEBKIT_CONTEXT_MENU_ACTION_INPUT_METHODS: .inputMethods,
            WEBKIT_CONTEXT_MENU_ACTION_UNICODE: .unicode, WEBKIT_CONTEXT_MENU_ACTION_SPELLING_GUESS: .spellingGuess,
            WEBKIT_CONTEXT_MENU_ACTION_NO_GUESSES_FOUND: .noGuessesFound,
            WEBKIT_CONTEXT_MENU_ACTION_IGNORE_SPELLING: .ignoreSpelling,
            WEBKIT_CONTEXT_MENU_ACTION_LEARN_SPELLING: .learnSpelling,
            WEBKIT_CONTEXT_MENU_ACTION_IGNORE_GRAMMAR: .ignoreGrammar, WEBKIT_CONTEXT_MENU_ACTION_FONT_MENU: .fontMenu,
            WEBKIT_CONTEXT_MENU_ACTION_BOLD: .bold, WEBKIT_CONTEXT_MENU_ACTION_ITALIC: .italic,
            WEBKIT_CONTEXT_MENU_ACTION_UNDERLINE: .underline, WEBKIT_CONTEXT_MENU_ACTION_OUTLINE: .outline,
            WEBKIT_CONTEXT_MENU_ACTION_INSPECT_ELEMENT: .inspectElement,
            WEBKIT_CONTEXT_MENU_ACTION_OPEN_VIDEO_IN_NEW_WINDOW: .openMediaInNewWindow,
            WEBKIT_CONTEXT_MENU_ACTION_OPEN_AUDIO_IN_NEW_WINDOW: .openMediaInNewWindow,
            WEBKIT_CONTEXT_MENU_ACTION_COPY_VIDEO_LINK_TO_CLIPBOARD: .copyMediaLink,
            WEBKIT_CONTEXT_MENU_ACTION_COPY_AUDIO_LINK_TO_CLIPBOARD: .copyMediaLink,
            WEBKIT_CONTEXT_MENU_ACTION_TOGGLE_MEDIA_CONTROLS: .mediaControls,
            WEBKIT_CONTEXT_MENU_ACTION_TOGGLE_MEDIA_LOOP: .mediaLoop,
            WEBKIT_CONTEXT_MENU_ACTION_ENTER_VIDEO_FULLSCREEN: .mediaFullscreen,
            WEBKIT_CONTEXT_MENU_ACTION_MEDIA_PLAY: .mediaPlay, WEBKIT_CONTEXT_MENU_ACTION_MEDIA_PAUSE: .mediaPause,
            WEBKIT_CONTEXT_MENU_ACTION_MEDIA_MUTE: .mediaMute,
            WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_VIDEO_TO_DISK: .downloadMedia,
            WEBKIT_CONTEXT_MENU_ACTION_DOWNLOAD_AUDIO_TO_DISK: .downloadMedia,
            WEBKIT_CONTEXT_MENU_ACTION_INSERT_EMOJI: .insertEmoji,
            WEBKIT_CONTEXT_MENU_ACTION_PASTE_AS_PLAIN_TEXT: .pasteAsPlainText,
        ]
        return actions[WebKitContextMenuAction(UInt32(bitPattern: raw))] ?? .custom
    }
}
