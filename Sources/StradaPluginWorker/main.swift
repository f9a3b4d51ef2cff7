import StradaPluginHost

// `strada-plugin-worker`: the plugin host's helper, installed beside `strada-host` (see PluginHelper). Its
// dependencies are StradaPluginHost's only — no GTK, no WebKit — so it starts quickly.
PluginHelper.main()
