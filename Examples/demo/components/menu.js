// The web half of `menu`: the trigger opens a native popover menu listing the page's menu items, anchored
// to the trigger; native replies with {selectedIndex} and the page clicks that item, exactly as the web
// menu would. Without the native component, the trigger opens the web menu (below).
//
//   <div data-controller="bridge--menu" data-bridge-title="Sort by">
//     <button data-menu-trigger>…</button>
//     <div class="popup" data-menu-items hidden><button data-menu-item>Name</button>…</div>
//   </div>
class MenuComponent extends Strada.BridgeComponent {
  static get component() { return "menu" }

  connect() {
    super.connect()
    this.trigger = this.element.querySelector("[data-menu-trigger]")
    this.onClick = (event) => {
      event.preventDefault()  // the web menu stays closed: native shows its own
      this.display()
    }
    this.trigger.addEventListener("click", this.onClick)
  }

  disconnect() {
    this.trigger.removeEventListener("click", this.onClick)
    super.disconnect()
  }

  get items() { return Array.from(this.element.querySelectorAll("[data-menu-item]")) }

  display() {
    const rect = this.trigger.getBoundingClientRect()
    const data = {
      title: this.bridgeElement.title,
      items: this.items.map((item, index) => ({ title: item.textContent.trim(), index })),
      source: { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) },
    }
    this.send("display", data, (message) => {
      Demo.received("menu", message)
      const item = this.items[message.data.selectedIndex]
      if (item) item.click()
    })
    Demo.sent("menu", "display", data)
  }
}

Strada.registerComponent(MenuComponent)

// Web fallback: the trigger toggles the web menu; choosing an item closes it.
document.addEventListener("click", (event) => {
  const root = event.target.closest("[data-controller~='bridge--menu']")
  if (!root || event.defaultPrevented) return
  const popup = root.querySelector("[data-menu-items]")
  if (event.target.closest("[data-menu-trigger]")) popup.hidden = !popup.hidden
  else if (event.target.closest("[data-menu-item]")) popup.hidden = true
})
