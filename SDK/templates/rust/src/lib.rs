//! The `hello-world` Strada component plugin, in Rust with the standard library only.
//!
//! Web → native: `connect {name}`  reply with `{"greeting": "Hello, <name>!", "presses": 0}` and show a
//!                                  header-bar button "Greet"
//!               `disconnect`       remove the button
//! Button press                     reply to the connect again, `{"greeting": …, "presses": n}`
//!
//! Your code is this file. `strada.rs` is the ABI (the header's types, the export, panics caught at the
//! boundary) and `json.rs` a small JSON value; you need not touch either.

pub mod json;
pub mod strada;

use json::Json;
use std::ffi::CStr;
use strada::{Button, ButtonStyle, Component, LogLevel, Message, Page, Placement, Status, log};

export_plugin!(HelloWorld, id: c"com.example.hello-world", version: c"0.1.0");

/// The native half of the `hello-world` component: one per page.
pub struct HelloWorld {
    page: Page,
    name: String,
    presses: u32,
}

const GREET_BUTTON: &str = "greet"; // shown page-wide as "hello-world.greet" (--trace, automation)

impl Component for HelloWorld {
    const NAME: &'static CStr = c"hello-world";

    fn new(page: Page) -> Self {
        HelloWorld { page, name: String::new(), presses: 0 }
    }

    fn receive(&mut self, message: Message) {
        match message.event.as_str() {
            "connect" => self.connect(&message),
            "disconnect" => report("remove_button", self.page.remove_button(GREET_BUTTON)),
            other => log(LogLevel::Debug, &format!("ignored event {other:?}")),
        }
    }

    fn control_activated(&mut self, id: &str) {
        if id == GREET_BUTTON {
            self.presses += 1;
            // Answers the last connect without keeping its id: the host remembers it.
            report("reply_to_event", self.page.reply_to_event("connect", &self.greeting()));
        }
    }
}

impl HelloWorld {
    fn connect(&mut self, message: &Message) {
        self.name = message.data.get("name").and_then(Json::as_str).unwrap_or("stranger").to_string();
        self.presses = 0;
        report("reply", self.page.reply(&message.reply_with(self.greeting())));
        let button = Button {
            id: GREET_BUTTON,
            title: "Greet",
            icon_name: "",
            enabled: true,
            placement: Placement::End,
            style: ButtonStyle::Suggested,
        };
        report("set_button", self.page.set_button(&button));
    }

    /// The reply's data: `{"greeting": "Hello, <name>!", "presses": n}`.
    fn greeting(&self) -> Json {
        Json::object([
            ("greeting", Json::from(format!("Hello, {}!", self.name))),
            ("presses", Json::from(self.presses)),
        ])
    }
}

/// Logs a host call that did not go through; a page that has gone (`GONE`) is normal.
fn report(call: &str, result: Result<(), Status>) {
    match result {
        Ok(()) | Err(Status::GONE) => {}
        Err(Status(status)) => log(LogLevel::Warning, &format!("{call} failed (status {status})")),
    }
}
