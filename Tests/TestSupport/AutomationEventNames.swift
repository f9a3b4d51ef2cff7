package import StradaAutomation
package import StradaCore

/// Families of event names the tests wait on or count together.
extension AutomationEvent.Name {
    /// A screen stack changed: `screen.pushed`, `screen.replaced`, `screen.popped`.
    package static let stackChanges: Set<Self> = [.screenPushed, .screenReplaced, .screenPopped]
    /// Every `screen.*` event: the stack changes and `screen.error`.
    package static let screenEvents: Set<Self> = stackChanges.union([.screenError])
    /// A command's result: `command.ok` or `command.error`.
    package static let commandResults: Set<Self> = [.commandOK, .commandError]
}

extension Set<AutomationEvent.Name> {
    /// Whether `event` (read as ``JSON``) is named one of these.
    package func contains(nameOf event: JSON) -> Bool { HostProcess.name(of: event).map(contains) ?? false }
}
