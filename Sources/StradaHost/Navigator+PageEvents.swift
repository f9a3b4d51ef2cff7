import StradaEngineGTK
import StradaNavigation
import StradaPluginHost

extension Navigator {
    /// Hands what a window reports about navigation to its navigator: loads, Turbo, Back, refresh, retry,
    /// failures, and a modal's request to be dismissed. `false` for what the window stack handles (closing,
    /// crashes, permissions, notifications).
    @discardableResult
    func handle(_ event: PageEvent) -> Bool {
        switch event {
        case .committed(let url, _): pageCommitted(url: url)
        case .locationChanged: historySettled(.locationChanged)
        case .finished:
            historySettled(.loadFinished)
            return false
        case .titleChanged(let title): titleChanged(title)
        case .turbo(let message):
            guard let event = TurboEvent(message) else {
                logger.debug("a Turbo adapter message the navigator does not know was ignored")
                return true
            }
            turbo(event)
        case .backRequested: back()
        case .loadFailed(let error): loadFailed(error)
        case .httpError(let error): httpError(error)
        case .retryRequested: retry()
        case .refreshRequested: refresh()
        case .dismissRequested: parent?.dismissModal(reason: "cancel")
        case .closeRequestedByPage, .windowClosed, .quitRequested, .webProcessTerminated,
            .permissionRequested, .notification:
            return false
        }
        return true
    }
}

/// A plugin's native screen is what the navigator shows for a URL the path configuration makes native.
extension NativeScreen: NativeScreenView {}
