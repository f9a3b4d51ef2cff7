// The web half of `share`: a native Share button in the header bar (copy link with a toast, or open in the
// browser). Sends {url, title} on connect; native does not reply. Without the native component, the page's
// own Share button copies the link (below).
//
//   <article data-controller="bridge--share" data-bridge-title="…" data-share-url="…optional…">
//     <button data-share-button>Share</button>
class ShareComponent extends Strada.BridgeComponent {
  static get component() { return "share" }

  connect() {
    super.connect()
    const data = { url: this.element.dataset.shareUrl || location.href, title: this.bridgeElement.title }
    this.send("connect", data)
    Demo.sent("share", "connect", data)
    Demo.report("share", "native Share button ready")
  }

  disconnect() {
    this.send("disconnect")
    super.disconnect()
  }
}

Strada.registerComponent(ShareComponent)

// Web fallback: the Web Share API where there is one, else the clipboard.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-share-button]")
  if (!button || event.defaultPrevented) return
  const root = button.closest("[data-controller~='bridge--share']")
  const url = root.dataset.shareUrl || location.href
  try {
    if (navigator.share) await navigator.share({ url, title: root.dataset.bridgeTitle })
    else await navigator.clipboard.writeText(url)
    Demo.report("share", navigator.share ? "shared" : "link copied")
  } catch (error) {
    Demo.report("share", "could not share: " + error.message)
  }
})
