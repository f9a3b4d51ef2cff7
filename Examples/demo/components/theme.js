// The web half of `theme`: the application's colour scheme follows the page's choice. Sends
// `connect {theme: "light" | "dark" | null}` (null: the desktop's) on connect and again whenever the choice
// changes; each repeated connect simply replaces the scheme. No reply. The page applies the same choice to
// its own colours (html[data-theme]), with or without the native component.
//
//   <fieldset data-controller="bridge--theme"><input type="radio" name="theme" value="light|dark|system">…
class ThemeComponent extends Strada.BridgeComponent {
  static get component() { return "theme" }

  connect() {
    super.connect()
    this.onChange = () => this.sendTheme()
    this.element.addEventListener("change", this.onChange)
    this.sendTheme()
  }

  disconnect() {
    this.element.removeEventListener("change", this.onChange)
    super.disconnect()
  }

  sendTheme() {
    const checked = this.element.querySelector("input:checked")
    const choice = checked ? checked.value : "system"
    const data = { theme: choice === "system" ? null : choice }
    this.send("connect", data)
    Demo.sent("theme", "connect", data)
    Demo.report("theme", `native scheme ${choice}`)
  }
}

Strada.registerComponent(ThemeComponent)
