// The web half of `alert`: clicking the element asks native for a modal dialog instead of window.confirm().
// Confirming makes native reply; the page then receives an "alert:confirmed" event on the element.
// Dismissing sends nothing back. Without the native component, window.confirm() asks (below).
//
//   <button data-controller="bridge--alert" data-alert-title="Delete draft?" data-alert-description="…"
//           data-alert-confirm="Delete" data-alert-dismiss="Keep" data-alert-destructive>
class AlertComponent extends Strada.BridgeComponent {
  static get component() { return "alert" }

  connect() {
    super.connect()
    this.onClick = (event) => {
      event.preventDefault()
      this.show()
    }
    this.element.addEventListener("click", this.onClick)
  }

  disconnect() {
    this.element.removeEventListener("click", this.onClick)
    super.disconnect()
  }

  show() {
    const options = this.element.dataset
    const data = { title: options.alertTitle, destructive: "alertDestructive" in options }
    if (options.alertDescription) data.description = options.alertDescription
    if (options.alertConfirm) data.confirm = options.alertConfirm
    if (options.alertDismiss) data.dismiss = options.alertDismiss
    this.send("show", data, (message) => {
      Demo.received("alert", message)
      this.element.dispatchEvent(new CustomEvent("alert:confirmed", { bubbles: true }))
    })
    Demo.sent("alert", "show", data)
  }
}

Strada.registerComponent(AlertComponent)

// Web fallback: the browser's own confirmation.
document.addEventListener("click", (event) => {
  const element = event.target.closest("[data-controller~='bridge--alert']")
  if (!element || event.defaultPrevented) return
  const options = element.dataset
  if (window.confirm([options.alertTitle, options.alertDescription].filter(Boolean).join("\n\n"))) {
    element.dispatchEvent(new CustomEvent("alert:confirmed", { bubbles: true }))
  }
})
