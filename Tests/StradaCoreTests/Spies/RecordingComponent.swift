import StradaCore

/// Records the messages it receives; counts instances to prove lazy one-per-name creation.
final class RecordingComponent: BridgeComponent {
    nonisolated override class var name: String { "one" }
    @MainActor static var instancesCreated = 0
    var received: [Message] = []
    var destroyed = false

    required init(destination: any BridgeDestination, delegate: any BridgingDelegate) {
        super.init(destination: destination, delegate: delegate)
        Self.instancesCreated += 1
    }

    override func onReceive(message: Message) { received.append(message) }
    override func onDestroy() { destroyed = true }
}

final class OtherComponent: BridgeComponent {
    nonisolated override class var name: String { "two" }
}
