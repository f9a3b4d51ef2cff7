// The web half of `overflow-menu`: the page's "more" button becomes a native "more" button in the header
// bar. Pressing it makes native reply to "connect"; the page clicks its own (hidden) button, which opens
// the page's overflow menu: the same code path as in a browser.
class OverflowMenuComponent extends Strada.BridgeComponent {
  static get component() { return "overflow-menu" }

  connect() {
    super.connect()
    const data = { label: this.bridgeElement.title }
    this.send("connect", data, (message) => {
      Demo.received("overflow-menu", message)
      this.bridgeElement.click()
    })
    Demo.sent("overflow-menu", "connect", data)
  }

  disconnect() {
    this.send("disconnect")
    super.disconnect()
  }
}

Strada.registerComponent(OverflowMenuComponent)
