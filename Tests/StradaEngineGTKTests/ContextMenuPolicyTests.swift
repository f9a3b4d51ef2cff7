import Testing

@testable import StradaEngineGTK

/// Which of WebKit's context-menu items an app keeps.
struct ContextMenuPolicyTests {
    typealias Action = ContextMenuPolicy.Action

    /// WebKit's menu on a link in a page (WebKitGTK 2.4x), Inspect Element at the end as in developer mode.
    static let onALink: [Action] = [
        .openLink, .openLinkInNewWindow, .downloadLink, .copyLink, .separator, .back, .forward, .stop, .reload,
        .separator, .inspectElement,
    ]

    @Test func aLinkKeepsCopyLinkAndGetsOpenInBrowserFirst() {
        #expect(
            ContextMenuPolicy.shown(Self.onALink, link: true, developer: false) == [
                .openLinkInBrowser, .separator, .copyLink,
            ])
    }

    @Test func navigationItemsGoAndInspectElementStaysOnlyInDeveloperMode() {
        let page: [Action] = [.back, .forward, .reload, .separator, .inspectElement]
        #expect(ContextMenuPolicy.shown(page, link: false, developer: false) == [])
        #expect(ContextMenuPolicy.shown(page, link: false, developer: true) == [.inspectElement])
        #expect(
            ContextMenuPolicy.shown(Self.onALink, link: true, developer: true) == [
                .openLinkInBrowser, .separator, .copyLink, .separator, .inspectElement,
            ])
    }

    @Test func editingItemsStay() {
        let field: [Action] = [
            .spellingGuess, .separator, .cut, .copy, .paste, .delete, .separator, .selectAll, .separator, .insertEmoji,
        ]
        #expect(ContextMenuPolicy.shown(field, link: false, developer: false) == field)
        let selection: [Action] = [.copy, .separator, .back, .reload]
        #expect(ContextMenuPolicy.shown(selection, link: false, developer: false) == [.copy])
    }

    @Test func theKeepMaskMatchesWebKitsItemsOneForOne() {
        let decision = ContextMenuPolicy.decide(Self.onALink, link: true, developer: false)
        #expect(decision.keep.count == Self.onALink.count)
        #expect(decision.keep == [false, false, false, true, false, false, false, false, false, false, false])
        #expect(decision.addOpenInBrowser)
        #expect(!ContextMenuPolicy.decide([.copy], link: false, developer: false).addOpenInBrowser)
    }

    @Test func downloadsAndNewWindowsGo() {
        let image: [Action] = [
            .openImageInNewWindow, .downloadImage, .copyImage, .copyImageAddress, .separator, .openMediaInNewWindow,
            .downloadMedia, .mediaPlay,
        ]
        #expect(
            ContextMenuPolicy.shown(image, link: false, developer: false) == [
                .copyImage, .copyImageAddress, .separator, .mediaPlay,
            ])
    }
}
