import StradaCore
import Testing

@testable import StradaEngineGTK

/// The snapshots of menus, dialogs and searches are built from `ControlSpec`'s JSON; the automation channel
/// must see exactly the fields, and the order, it always did (no `anchorButton`, the snapshot's own `kind`).
struct ControlSnapshotTests {
    /// The automation channel's form of each kind, written out field by field as before the encodings were one.
    static func reference(_ menu: ControlMenu) -> JSON {
        var fields: JSONObject = [
            "title": .string(menu.title),
            "items": .array(menu.items.map { ["title": .string($0.title), "index": .number(Double($0.index))] }),
        ]
        if let anchor = menu.anchor {
            fields["anchor"] = [
                "x": .number(anchor.x), "y": .number(anchor.y),
                "width": .number(anchor.width), "height": .number(anchor.height),
            ]
        }
        fields["id"] = .string(menu.id)
        fields["kind"] = "menu"
        return .object(fields)
    }

    @Test func aMenuHasTitleItemsAndAnchorButNotItsAnchorButton() {
        let items: [ControlMenu.Item] = [.init(title: "Name", index: 0), .init(title: "Size", index: 2)]
        let anchored = ControlMenu(
            id: "menu.menu", title: "Sort by", items: items, anchor: ControlAnchor(x: 1, y: 2.5, width: 30, height: 4))
        let onButton = ControlMenu(id: "share.menu", title: "", items: items, anchorButton: "share.button")
        for menu in [anchored, onButton] {
            let snapshot = ControlSnapshot(menu)
            #expect(snapshot.kind == "menu")
            #expect(snapshot.json.serialized() == Self.reference(menu).serialized())
        }
        #expect(ControlSnapshot(onButton).properties["anchorButton"] == nil)
    }

    @Test func anAlertIsADialogWithItsTexts() {
        for message: String? in ["It goes for good.", nil] {
            let alert = ControlAlert(
                id: "alert.alert", title: "Delete?", message: message, confirmTitle: "Delete", dismissTitle: "Keep",
                isDestructive: true)
            let reference: JSON = [
                "title": "Delete?", "message": message.map(JSON.string) ?? .null, "confirm": "Delete",
                "dismiss": "Keep", "destructive": true, "id": "alert.alert", "kind": "dialog",
            ]
            #expect(ControlSnapshot(alert).json.serialized() == reference.serialized())
        }
    }

    @Test func aSearchHasItsPlaceholderAndText() {
        let search = ControlSearch(id: "search.search", placeholder: "Search fruit")
        let reference: JSON = [
            "placeholder": "Search fruit", "text": "kiwi", "id": "search.search", "kind": "search",
        ]
        #expect(ControlSnapshot(search, text: "kiwi").json.serialized() == reference.serialized())
    }
}
