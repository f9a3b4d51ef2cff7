// The web half of `page`: the window's title and subtitle come from the page. `connect` sends them; when
// the element's data-bridge-title / data-bridge-subtitle change (e.g. the page switched tabs with
// history.pushState), `change` sends the new ones. Native replies to "connect" with what the window shows,
// after each change. Without the native component, the page's own title bar (.appbar) shows them.
class PageComponent extends Strada.BridgeComponent {
  static get component() { return "page" }

  connect() {
    super.connect()
    const data = this.titleData
    this.send("connect", data, (message) => {
      Demo.received("page", message)
      Demo.report("page", `window shows “${message.data.title}”`)
    })
    Demo.sent("page", "connect", data)
    this.observer = new MutationObserver(() => {
      const change = this.titleData
      this.send("change", change)
      Demo.sent("page", "change", change)
    })
    this.observer.observe(this.element, { attributes: true, attributeFilter: ["data-bridge-title", "data-bridge-subtitle"] })
  }

  disconnect() {
    this.observer.disconnect()
    super.disconnect()
  }

  get titleData() {
    const data = { title: this.bridgeElement.title }
    const subtitle = this.bridgeElement.bridgeAttribute("subtitle")
    if (subtitle) data.subtitle = subtitle
    return data
  }
}

Strada.registerComponent(PageComponent)
