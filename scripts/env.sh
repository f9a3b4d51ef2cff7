# Sourced by the scripts: WebKit's sandbox needs user namespaces. Where they are missing, WebKit's UI
# process aborts with no catchable error, so probe bubblewrap first and only then disable the sandbox.
if ! bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --share-net true 2>/dev/null; then
  echo "env: bubblewrap cannot create a sandbox here (no user namespaces): running WebKit WITHOUT its sandbox" >&2
  export WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1
fi
# Headless: no display → run graphical commands under a virtual one. It must not reset (-noreset): an X server
# resets when its last client leaves, dropping any client still connecting; one host's web process leaves after the
# host, when the next test's host may be connecting.
with_display() {
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1280x800x24 -noreset" "$@"; fi
}
