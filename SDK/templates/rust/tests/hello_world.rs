//! The plugin as the host sees it: loaded through `strada_plugin_entry_v1` with a complete fake host
//! table (tests/fake_host), driven as a page and a user would.

mod fake_host;

use fake_host::{Call, FakePage};

const CONNECT: &str = r#"{"id":"1","component":"hello-world","event":"connect","data":{"name":"Ada \"Countess\"","metadata":{"url":"https://app.test/"}}}"#;

#[test]
fn describes_one_component() {
    let page = FakePage::open(c"hello-world");
    assert_eq!(page.component_names(), ["hello-world"]);
    assert!(page.plugin().struct_size >= 104);
}

#[test]
fn replies_to_connect_shows_a_button_and_replies_again_on_each_press() {
    let page = FakePage::open(c"hello-world");
    let greeting = r#"{"greeting":"Hello, Ada \"Countess\"!","presses":0}"#;
    assert_eq!(
        page.send(CONNECT),
        [
            Call::Reply(format!(r#"{{"id":"1","component":"hello-world","event":"connect","data":{greeting}}}"#)),
            Call::SetButton { id: "greet".into(), title: "Greet".into(), enabled: true },
        ]
    );
    for presses in 1..=2 {
        assert_eq!(
            page.press("greet"),
            [Call::ReplyToEvent {
                event: "connect".into(),
                data: format!(r#"{{"greeting":"Hello, Ada \"Countess\"!","presses":{presses}}}"#),
            }]
        );
    }
    assert_eq!(page.press("another"), []);
    assert_eq!(
        page.send(r#"{"id":"2","component":"hello-world","event":"disconnect"}"#),
        [Call::RemoveButton("greet".into())]
    );
}

#[test]
fn logs_a_malformed_message_and_goes_on() {
    let page = FakePage::open(c"hello-world");
    let calls = page.send(r#"{"id":"#);
    assert!(matches!(&calls[..], [Call::Log { level: 2, text }] if text.contains("malformed")), "{calls:?}");
    assert!(matches!(page.send(CONNECT).first(), Some(Call::Reply(_))));
}

#[test]
fn reads_and_writes_json() {
    use hello_world::json::Json;
    let value = Json::parse(r#" {"a": [1, -2.5e1, true, null], "b": "\u00e9\ud83d\ude00\n"} "#).unwrap();
    assert_eq!(value.get("b").and_then(Json::as_str), Some("é😀\n"));
    assert_eq!(value.to_string(), r#"{"a":[1,-25,true,null],"b":"é😀\n"}"#);
    for bad in ["", "{", "[1,]", "01", "\"\u{1}\"", "{\"a\" 1}", "nul", "1 2", "\"\\ud83d\""] {
        assert_eq!(Json::parse(bad), None, "{bad:?}");
    }
    assert_eq!(Json::parse(&"[".repeat(200)), None);
}
