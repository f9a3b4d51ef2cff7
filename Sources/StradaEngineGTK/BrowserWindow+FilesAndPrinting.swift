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

    private func chooseFiles(_ request: UnsafeMutableRawPointer, multiple: Bool, accept: [String]) {
        let window = self.window
        controls.presentFileChooser(
            multiple: multiple, accept: accept,
            native: { strada_file_chooser_run_native(request, window) },
            answer: { paths in
                let copies = paths.map { strdup($0) }
                defer { for copy in copies { free(copy) } }
                let pointers = copies.map { UnsafePointer($0) }
                pointers.withUnsafeBufferPointer { buffer in
                    strada_file_chooser_answer(request, buffer.baseAddress, guint(buffer.count))
                }
            })
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
