import CWebKitGTK

/// A page's `<input type=file>` and `window.print()`: WebKit's "run-file-chooser" and "print" signals, handed
/// to the window's controls (`WindowControls+PageRequests.swift`), which ask the user natively or, under
/// automation, report them as controls to answer.
extension BrowserWindow {
    /// Connects the web view's file chooser and print requests to ``controls``.
    func installFilesAndPrinting() {
        strada_connect_file_chooser(
            webView.view,
            { request, multiple, accept, data in
                guard let request, let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                // The MIME types WebKit passes on (`webkit_file_chooser_request_get_mime_types`), ours to free.
                var types: [String] = []
                if let accept {
                    var index = 0
                    while let item = accept[index] {
                        types.append(String(cString: item))
                        index += 1
                    }
                    g_strfreev(accept)
                }
                MainActor.assumeIsolated { window.chooseFiles(request, multiple: multiple != 0, accept: types) }
            }, Unmanaged.passUnretained(self).toOpaque())
        strada_connect_print(
            webView.view,
            { operation, data in
                guard let operation, let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { window.print(operation) }
            },
            { error, data in
                guard let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let reason = error.map { String(cString: $0) }
                MainActor.assumeIsolated { window.controls.printEnded(error: reason) }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether the file input the page opened a chooser for is `<input webkitdirectory>`, which WebKitGTK's
    /// request does not say: the input is the page's focused element (a click focuses it), asked in the page.
    private static let folderProbe = """
        (() => { const input = document.activeElement;
          if (!(input instanceof HTMLInputElement && input.type === "file" && input.webkitdirectory)) throw 0 })()
        """

    private func chooseFiles(_ request: UnsafeMutableRawPointer, multiple: Bool, accept: [String]) {
        webView.evaluate(javaScript: Self.folderProbe) { [weak self] notFolders in
            guard let self else { return strada_file_chooser_answer(request, nil, 0) }
            self.chooseFiles(request, multiple: multiple, accept: accept, folders: notFolders == nil)
        }
    }

    private func chooseFiles(_ request: UnsafeMutableRawPointer, multiple: Bool, accept: [String], folders: Bool) {
        let window = self.window
        let answer: @MainActor ([String]) -> Void = { paths in
            let copies = WindowControls.files(answering: paths).map { strdup($0) }
            defer { for copy in copies { free(copy) } }
            let pointers = copies.map { UnsafePointer($0) }
            pointers.withUnsafeBufferPointer { buffer in
                strada_file_chooser_answer(request, buffer.baseAddress, guint(buffer.count))
            }
        }
        controls.presentFileChooser(
            multiple: multiple, accept: accept, folders: folders,
            native: {
                let box = Unmanaged.passRetained(ChosenFiles(answer)).toOpaque()
                strada_file_chooser_run_native(
                    request, window, folders ? 1 : 0,
                    { paths, count, data in
                        guard let data else { return }
                        let chosen = Unmanaged<ChosenFiles>.fromOpaque(data).takeRetainedValue()
                        let list = (0..<Int(count)).compactMap { index in paths?[index].map { String(cString: $0) } }
                        MainActor.assumeIsolated { chosen.answer(list) }
                    }, box)
            },
            answer: answer)
    }

    private func print(_ operation: UnsafeMutableRawPointer) {
        let view = webView.view, window = self.window
        controls.presentPrint(
            url: webView.currentURL ?? "",
            native: { strada_print_run_dialog(operation, window) },
            toFile: { path in strada_print_to_pdf(operation, view, path) },
            cancel: { strada_print_cancel(operation) })
    }
}

/// The answer to a native file chooser, kept alive until the chooser is closed.
private final class ChosenFiles {
    let answer: @MainActor ([String]) -> Void
    init(_ answer: @escaping @MainActor ([String]) -> Void) { self.answer = answer }
}
