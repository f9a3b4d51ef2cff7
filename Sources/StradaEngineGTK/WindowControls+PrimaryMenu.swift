import CWebKitGTK
import Foundation
import StradaCore

/// The app's own chrome, as the GNOME HIG has it: the primary menu (`open-menu-symbolic` at the end of the
/// header bar, F10 opens it: a `GtkMenuButton` marked primary), the About window (`AdwAboutWindow`) and the
/// Keyboard Shortcuts window (`GtkShortcutsWindow`). Automation sees the menu's popover while it is open
/// (kind `primary-menu`, id `app.menu`) and each window while it is shown (`about` / `shortcuts`).
extension WindowControls {
    /// The ids the automation channel knows them by.
    static let primaryMenuID = "app.menu", aboutID = "app.about", shortcutsID = "app.shortcuts"

    /// Puts `menu` at the end of the header bar; choosing an item calls `onChoose` with it.
    func installPrimaryMenu(_ menu: PrimaryMenu, onChoose: @escaping @MainActor (PrimaryMenu.Item) -> Void) {
        let model = g_menu_new()!
        for section in [menu.appItems, menu.standardItems] where !section.isEmpty {
            let part = g_menu_new()!
            for item in section {
                let index = menu.items.firstIndex(of: item) ?? 0
                let entry = g_menu_item_new(item.title, nil)
                g_menu_item_set_action_and_target_value(entry, "app-menu.choose", g_variant_new_int32(Int32(index)))
                g_menu_append_item(part, entry)
                g_object_unref(entry.map { UnsafeMutableRawPointer($0) })
            }
            g_menu_append_section(model, nil, Self.menuModel(part))
            g_object_unref(UnsafeMutableRawPointer(part))
        }
        let group = g_simple_action_group_new()!
        let type = g_variant_type_new("i")
        let action = g_simple_action_new("choose", type)!
        g_variant_type_free(type)
        let items = menu.items
        onPointerSignal(UnsafeMutableRawPointer(action), "activate") { parameter in
            guard let parameter else { return }
            let index = Int(g_variant_get_int32(parameter))
            if items.indices.contains(index) { onChoose(items[index]) }
        }
        g_action_map_add_action(OpaquePointer(group), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        let button = strada_primary_menu_button_new(Self.menuModel(model), window, "app-menu", OpaquePointer(group))!
        g_object_unref(UnsafeMutableRawPointer(model))
        adw_header_bar_pack_end(strada_adw_header_bar(headerBar), button)
        primaryMenu = PrimaryMenuEntry(button: WidgetRef(button), group: GObjectRef(OpaquePointer(group)), menu: menu)
        if let popover = primaryMenuPopover {
            let widget = UnsafeMutableRawPointer(popover)
            onSignal(widget, "show") { [weak self] in self?.primaryMenuShown(true) }
            onSignal(widget, "closed") { [weak self] in self?.primaryMenuShown(false) }
        }
    }

    /// The primary menu's popover (GTK makes it with the menu model).
    var primaryMenuPopover: UnsafeMutablePointer<GtkWidget>? {
        guard let button = primaryMenu?.button.pointer,
            let popover = gtk_menu_button_get_popover(strada_gtk_menu_button(button))
        else { return nil }
        return UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self)
    }

    private static func menuModel(_ menu: OpaquePointer) -> UnsafeMutablePointer<GMenuModel> {
        UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
    }

    private func primaryMenuShown(_ shown: Bool) {
        guard let menu = primaryMenu?.menu, shown != primaryMenuOpen else { return }
        primaryMenuOpen = shown
        observer?(shown ? .added(Self.snapshot(menu)) : .removed(id: Self.primaryMenuID))
    }

    /// The primary menu as automation sees it.
    static func snapshot(_ menu: PrimaryMenu) -> ControlSnapshot {
        ControlSnapshot(id: primaryMenuID, kind: "primary-menu", properties: menu.json)
    }

    /// Opens the primary menu's popover (as F10 or a click does).
    func openPrimaryMenu() {
        guard let button = primaryMenu?.button.pointer else { return }
        gtk_menu_button_popup(strada_gtk_menu_button(button))
    }

    /// Chooses item `index` of the primary menu (through its action, as a click on the item does).
    func choosePrimaryMenuItem(_ index: Int) throws(ControlActionError) {
        guard let entry = primaryMenu else { throw .noSuchControl(Self.primaryMenuID) }
        guard entry.menu.items.indices.contains(index) else { throw .noSuchItem(Self.primaryMenuID, index) }
        if primaryMenuOpen { gtk_menu_button_popdown(strada_gtk_menu_button(entry.button.pointer)) }
        g_action_group_activate_action(entry.group.pointer, "choose", g_variant_new_int32(Int32(index)))
    }

    /// Shows the About window for `about` (over this window).
    func presentAbout(_ about: AboutInfo) {
        if let shown = chromeWindows[Self.aboutID] {
            return gtk_window_present(strada_gtk_window(shown.window.pointer))
        }
        let aboutWindow = adw_about_window_new()!
        let dialog = strada_adw_about_window(aboutWindow)
        adw_about_window_set_application_name(dialog, about.name)
        if let version = about.version { adw_about_window_set_version(dialog, version) }
        if let developer = about.developer { adw_about_window_set_developer_name(dialog, developer) }
        if let website = about.website { adw_about_window_set_website(dialog, website) }
        if let icon = about.icon { adw_about_window_set_application_icon(dialog, icon) }
        if let license = about.license {
            if let known = AboutInfo.KnownLicense(spdx: license) {
                adw_about_window_set_license_type(dialog, Self.gtkLicense(known))
            } else {
                adw_about_window_set_license(dialog, license)
            }
        }
        present(aboutWindow, id: Self.aboutID, kind: "about", properties: about.json)
    }

    /// Shows the Keyboard Shortcuts window (over this window).
    func presentShortcuts(developer: Bool) {
        if let shown = chromeWindows[Self.shortcutsID] {
            return gtk_window_present(strada_gtk_window(shown.window.pointer))
        }
        let tabs = tabSwitcher?.titles ?? []
        let xml = WindowShortcuts.builderXML(developer: developer, tabs: tabs)
        guard let shortcuts = strada_shortcuts_window_new(xml, window) else { return }
        present(
            shortcuts, id: Self.shortcutsID, kind: "shortcuts",
            properties: WindowShortcuts.json(developer: developer, tabs: tabs))
    }

    /// Closes the About or Keyboard Shortcuts window `id` (as Escape does); `false` when it is not shown.
    func closeChromeWindow(id: String) -> Bool {
        guard let shown = chromeWindows[id] else { return false }
        gtk_window_close(strada_gtk_window(shown.window.pointer))
        return true
    }

    /// Shows `dialog` transient for and modal over this window, reported as control `id` until it is closed.
    private func present(_ dialog: UnsafeMutablePointer<GtkWidget>, id: String, kind: String, properties: JSONObject) {
        gtk_window_set_transient_for(strada_gtk_window(dialog), strada_gtk_window(window))
        gtk_window_set_modal(strada_gtk_window(dialog), 1)
        let snapshot = ControlSnapshot(id: id, kind: kind, properties: properties)
        chromeWindows[id] = (WidgetRef(dialog), snapshot)
        // Closed (its close button, Escape, `dismiss`): reported, then destroyed here.
        onBoolSignal(UnsafeMutableRawPointer(dialog), "close-request") { [weak self] in
            if self?.chromeWindows.removeValue(forKey: id) != nil { self?.observer?(.removed(id: id)) }
            gtk_window_destroy(strada_gtk_window(dialog))
            return true
        }
        gtk_window_present(strada_gtk_window(dialog))
        observer?(.added(snapshot))
    }

    private static func gtkLicense(_ license: AboutInfo.KnownLicense) -> GtkLicense {
        switch license {
        case .gpl2OrLater: GTK_LICENSE_GPL_2_0
        case .gpl3OrLater: GTK_LICENSE_GPL_3_0
        case .lgpl21OrLater: GTK_LICENSE_LGPL_2_1
        case .lgpl3OrLater: GTK_LICENSE_LGPL_3_0
        case .bsd2: GTK_LICENSE_BSD
        case .mit: GTK_LICENSE_MIT_X11
        case .artistic2: GTK_LICENSE_ARTISTIC
        case .gpl2Only: GTK_LICENSE_GPL_2_0_ONLY
        case .gpl3Only: GTK_LICENSE_GPL_3_0_ONLY
        case .lgpl21Only: GTK_LICENSE_LGPL_2_1_ONLY
        case .lgpl3Only: GTK_LICENSE_LGPL_3_0_ONLY
        case .agpl3OrLater: GTK_LICENSE_AGPL_3_0
        case .agpl3Only: GTK_LICENSE_AGPL_3_0_ONLY
        case .bsd3: GTK_LICENSE_BSD_3
        case .apache2: GTK_LICENSE_APACHE_2_0
        case .mpl2: GTK_LICENSE_MPL_2_0
        }
    }
}
