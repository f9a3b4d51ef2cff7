// The web half of `search`: a native search entry under the header bar replaces the page's search field.
// Native replies to "connect" with {query} every time the text changes; the page puts the query in its
// (hidden) field and fires "input", so filtering runs exactly as when typing in the web field.
class SearchComponent extends Strada.BridgeComponent {
  static get component() { return "search" }

  connect() {
    super.connect()
    this.input = this.element.querySelector("input[type=search]")
    const data = { placeholder: this.input.placeholder }
    this.send("connect", data, (message) => {
      Demo.received("search", message)
      this.input.value = message.data.query
      this.input.dispatchEvent(new Event("input", { bubbles: true }))
    })
    Demo.sent("search", "connect", data)
  }

  disconnect() {
    this.send("disconnect")
    super.disconnect()
  }
}

Strada.registerComponent(SearchComponent)
