// The web half of `button`: a link or button of the page becomes a native header-bar button.
//
//   data-bridge-title   the label (also the tooltip when there is an icon)
//   data-bridge-image   a freedesktop icon name, e.g. "go-previous-symbolic" (optional)
//   data-bridge-side    "left" or "right" (default)
//
// Native press → native replies → the page clicks the element, so native and web take the same path.
// Changing data-bridge-title / data-bridge-image sends the message again: native updates its button in
// place (a repeated connect replaces, never adds). A left button uses the event "left" so that each
// native button answers its own message (native replies to the last message of an event).
class ButtonComponent extends Strada.BridgeComponent {
  static get component() { return "button" }

  connect() {
    super.connect()
    this.sendButton()
    this.observer = new MutationObserver(() => this.sendButton())
    this.observer.observe(this.element, { attributes: true, attributeFilter: ["data-bridge-title", "data-bridge-image"] })
  }

  disconnect() {
    this.observer.disconnect()
    // Which button went: the other side's stays (a frame re-rendering around one of them, say).
    this.send("disconnect", { side: this.bridgeElement.bridgeAttribute("side") === "left" ? "left" : "right" })
    super.disconnect()
  }

  sendButton() {
    const element = this.bridgeElement
    const side = element.bridgeAttribute("side") === "left" ? "left" : "right"
    const event = side === "left" ? "left" : "connect"
    const data = { title: element.title, side }
    const image = element.bridgeAttribute("image")
    if (image) data.image = image
    this.send(event, data, (message) => {
      Demo.received("button", message)
      this.element.click()
    })
    Demo.sent("button", event, data)
  }
}

Strada.registerComponent(ButtonComponent)
