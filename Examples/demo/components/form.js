// The web half of `form`: the form's submit button becomes a native header-bar button. It is enabled only
// while the form is valid; pressing it makes native reply to "connect", and the page submits the form.
// Without the native component, the page's own submit button (hidden by style.css otherwise) does the job.
class FormComponent extends Strada.BridgeComponent {
  static get component() { return "form" }

  connect() {
    super.connect()
    this.submitButton = this.element.querySelector("[type=submit]")
    const title = new Strada.BridgeElement(this.submitButton).title
    const data = { submitTitle: title }
    this.send("connect", data, (message) => {
      Demo.received("form", message)
      Demo.report("form", `native “${title}” pressed, submitting`)
      this.element.requestSubmit(this.submitButton)
    })
    Demo.sent("form", "connect", data)
    this.lastValid = undefined
    this.onInput = () => this.updateSubmit()
    this.element.addEventListener("input", this.onInput)
    this.updateSubmit()
  }

  disconnect() {
    this.element.removeEventListener("input", this.onInput)
    this.send("disconnect")
    super.disconnect()
  }

  // Only tells native when validity flips.
  updateSubmit() {
    const valid = this.element.checkValidity()
    if (valid === this.lastValid) return
    const event = valid ? "submitEnabled" : "submitDisabled"
    if (this.lastValid !== undefined || !valid) {
      this.send(event)
      Demo.sent("form", event)
    }
    this.lastValid = valid
  }
}

Strada.registerComponent(FormComponent)
