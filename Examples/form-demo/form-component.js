// The web half of the `form` component: asks native for a header-bar submit button, keeps it enabled
// only while the form is valid, and submits the form when native replies to "connect".
class FormComponent extends Strada.BridgeComponent {
  static get component() { return "form"; }

  connect() {
    const submit = this.element.querySelector("[type=submit]");
    this.submitButton = submit;
    this.send("connect", { submitTitle: new Strada.BridgeElement(submit).title }, () => {
      this.element.requestSubmit(submit);
    });
    this.onInput = () => this.updateSubmit();
    this.element.addEventListener("input", this.onInput);
    this.element.addEventListener("change", this.onInput);
    this.updateSubmit();
  }

  disconnect() {
    this.element.removeEventListener("input", this.onInput);
    this.element.removeEventListener("change", this.onInput);
    this.send("disconnect");
  }

  updateSubmit() {
    const agree = this.element.querySelector("#agree");
    const valid = this.element.checkValidity() && (!agree || agree.checked);
    if (valid === this.lastValid) return;
    this.lastValid = valid;
    this.send(valid ? "submitEnabled" : "submitDisabled");
  }
}

Strada.registerComponent(FormComponent);
