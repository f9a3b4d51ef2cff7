// The web half of `toast`: a native toast over the page instead of a web one.
//
//   <form data-controller="bridge--toast"><input name="message">…</form>     submitting shows the message
//   <div class="flash" data-controller="bridge--toast" data-toast-message="Saved">   shown once, on connect
//
// No reply: a toast is fire-and-forget. Without the native component, a web toast shows (below) and flash
// messages stay in the page (style.css hides them when native shows them).
class ToastComponent extends Strada.BridgeComponent {
  static get component() { return "toast" }

  connect() {
    super.connect()
    const flash = this.element.dataset.toastMessage
    if (flash) {
      this.show(flash)
      return
    }
    this.onSubmit = (event) => {
      event.preventDefault()
      this.show(new FormData(this.element).get("message") || "")
    }
    this.element.addEventListener("submit", this.onSubmit)
  }

  disconnect() {
    if (this.onSubmit) this.element.removeEventListener("submit", this.onSubmit)
    super.disconnect()
  }

  show(message) {
    const data = { message }
    this.send("show", data)
    Demo.sent("toast", "show", data)
    Demo.report("toast", `native toast “${message}”`)
  }
}

Strada.registerComponent(ToastComponent)

// Web fallback: a toast drawn by the page.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-controller~='bridge--toast']")
  if (!form || event.defaultPrevented) return
  event.preventDefault()
  const toast = document.createElement("div")
  toast.className = "web-toast"
  toast.textContent = new FormData(form).get("message") || ""
  document.body.appendChild(toast)
  setTimeout(() => toast.remove(), 3000)
  Demo.report("toast", `web toast “${toast.textContent}”`)
})
