//! counter-rs — a Strada component plugin in Rust, with no dependencies (plain `rustc`, no cargo).
//!
//! Component "counter-rs":
//!   web → native  connect {title?}   show a header-bar button (id "count", label `title` or "Count")
//!   web → native  disconnect         remove the button
//!   button press                     reply to the last connect with {"count": n}, n = 1, 2, 3, …
//!
//! Build: ./build.sh [output-dir]    (rustc --edition 2021 --crate-type cdylib -O lib.rs -o libcounter_rs.so)
//!
//! Rules this file follows (see strada_plugin.h):
//!  - No panic crosses the boundary: every `extern "C"` function runs its body in `guard`
//!    (`std::panic::catch_unwind`), logs a caught panic through the host and returns a neutral value.
//!  - Strings from the host are borrowed: they are copied into `String`s before the call returns.
//!  - Host functions are called only on the main thread, from inside a host → plugin call.
//!  - Every host status code is checked; failures are logged, never fatal.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

// =================================================================================================
// ABI mirrors. These MUST match SDK/CStradaPlugin/include/strada_plugin.h, ABI 1.0, field for field.
// The sizes below are the x86_64 / aarch64 layouts pinned by SDK/CStradaPlugin/layout_checks.c.
// =================================================================================================

const STRADA_PLUGIN_ABI_MAJOR: u32 = 1;
const STRADA_PLUGIN_ABI_MINOR: u32 = 0;

type StradaStatus = i32;
const STRADA_OK: StradaStatus = 0;
const STRADA_ERR_INVALID_ARGUMENT: StradaStatus = -1;
const STRADA_ERR_GONE: StradaStatus = -3;

type StradaLogLevel = i32;
const STRADA_LOG_DEBUG: StradaLogLevel = 0;
const STRADA_LOG_INFO: StradaLogLevel = 1;
const STRADA_LOG_WARNING: StradaLogLevel = 2;
const STRADA_LOG_ERROR: StradaLogLevel = 3;

const STRADA_PLACEMENT_END: i32 = 1;
const STRADA_BUTTON_STYLE_SUGGESTED: u8 = 1;

/// `strada_string`: a borrowed UTF-8 (pointer, length) pair.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct StradaString {
    data: *const c_char,
    length: u64,
}

/// `strada_host_instance`: opaque host handle.
#[repr(C)]
pub struct HostInstance {
    _private: [u8; 0],
}

/// `strada_plugin_instance`: opaque to the host; here it is really a `Box<Instance>`.
#[repr(C)]
pub struct PluginInstance {
    _private: [u8; 0],
}

/// `strada_button_v1`.
#[repr(C)]
pub struct StradaButtonV1 {
    struct_size: u32,
    placement: i32,
    id: StradaString,
    title: StradaString,
    icon_name: StradaString,
    enabled: u8,
    style: u8,
    reserved: [u8; 6],
}

type MainThreadFn = Option<unsafe extern "C" fn(context: *mut c_void)>;

/// `strada_host_api_v1`: owned by the host, valid until the process exits.
#[repr(C)]
pub struct StradaHostApiV1 {
    struct_size: u32,
    abi_major: u32,
    abi_minor: u32,
    reserved: u32,
    host_context: *mut c_void,
    reply: Option<unsafe extern "C" fn(*const StradaHostApiV1, *mut HostInstance, StradaString) -> StradaStatus>,
    log: Option<unsafe extern "C" fn(*const StradaHostApiV1, StradaLogLevel, StradaString)>,
    codec_settings_json: Option<unsafe extern "C" fn(*const StradaHostApiV1) -> *const c_char>,
    run_on_main_thread: Option<unsafe extern "C" fn(*const StradaHostApiV1, MainThreadFn, *mut c_void) -> StradaStatus>,
    set_button: Option<unsafe extern "C" fn(*const StradaHostApiV1, *mut HostInstance, *const StradaButtonV1) -> StradaStatus>,
    remove_button: Option<unsafe extern "C" fn(*const StradaHostApiV1, *mut HostInstance, StradaString) -> StradaStatus>,
    get_extension: Option<unsafe extern "C" fn(*const StradaHostApiV1, *const c_char) -> *const c_void>,
    reply_to_event: Option<unsafe extern "C" fn(*const StradaHostApiV1, *mut HostInstance, StradaString, StradaString) -> StradaStatus>,
}

/// `strada_plugin_v1`: owned by the plugin; must stay valid until shutdown (here: a static).
#[repr(C)]
pub struct StradaPluginV1 {
    struct_size: u32,
    abi_major: u32,
    abi_minor: u32,
    component_count: u32,
    plugin_id: *const c_char,
    plugin_version: *const c_char,
    component_names: *const *const c_char,
    plugin_context: *mut c_void,
    create_instance: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *mut HostInstance) -> *mut PluginInstance>,
    receive: Option<unsafe extern "C" fn(*mut PluginInstance, StradaString)>,
    lifecycle: Option<unsafe extern "C" fn(*mut PluginInstance, i32)>,
    control_activated: Option<unsafe extern "C" fn(*mut PluginInstance, StradaString)>,
    destroy_instance: Option<unsafe extern "C" fn(*mut PluginInstance)>,
    shutdown: Option<unsafe extern "C" fn(*mut c_void)>,
    get_extension: Option<unsafe extern "C" fn(*mut c_void, *const c_char) -> *const c_void>,
}

// Compile-time layout checks (64-bit targets, as pinned by layout_checks.c): a drift fails the build.
#[cfg(target_pointer_width = "64")]
mod layout_checks {
    use super::*;
    use std::mem::{offset_of, size_of};
    const _: () = assert!(size_of::<StradaString>() == 16);
    const _: () = assert!(size_of::<StradaButtonV1>() == 64);
    const _: () = assert!(size_of::<StradaHostApiV1>() == 88);
    const _: () = assert!(size_of::<StradaPluginV1>() == 104);
    const _: () = assert!(offset_of!(StradaButtonV1, enabled) == 56);
    const _: () = assert!(offset_of!(StradaHostApiV1, reply) == 24);
    const _: () = assert!(offset_of!(StradaHostApiV1, remove_button) == 64);
    const _: () = assert!(offset_of!(StradaHostApiV1, get_extension) == 72);
    const _: () = assert!(offset_of!(StradaHostApiV1, reply_to_event) == 80);
    const _: () = assert!(offset_of!(StradaPluginV1, create_instance) == 48);
    const _: () = assert!(offset_of!(StradaPluginV1, shutdown) == 88);
    const _: () = assert!(offset_of!(StradaPluginV1, get_extension) == 96);
}

// =================================================================================================
// A small JSON reader and writer (enough for wire messages; no dependencies).
// =================================================================================================

mod json {
    /// A parsed JSON value. Numbers keep their text; objects keep member order (first key wins on lookup).
    #[derive(Debug, PartialEq)]
    pub enum Value {
        Null,
        Bool(bool),
        Number(String),
        String(String),
        Array(Vec<Value>),
        Object(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, key: &str) -> Option<&Value> {
            match self {
                Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        pub fn as_str(&self) -> Option<&str> {
            match self {
                Value::String(s) => Some(s),
                _ => None,
            }
        }
    }

    const MAX_DEPTH: usize = 128;

    /// Parses one complete JSON text (RFC 8259). Errors name the byte offset.
    pub fn parse(text: &str) -> Result<Value, String> {
        let mut parser = Parser { bytes: text.as_bytes(), at: 0 };
        let value = parser.value(0)?;
        parser.space();
        if parser.at != parser.bytes.len() {
            return Err(parser.error("trailing characters"));
        }
        Ok(value)
    }

    struct Parser<'a> {
        bytes: &'a [u8],
        at: usize,
    }

    impl Parser<'_> {
        fn error(&self, what: &str) -> String {
            format!("invalid JSON at byte {}: {}", self.at, what)
        }

        fn peek(&self) -> Option<u8> {
            self.bytes.get(self.at).copied()
        }

        fn space(&mut self) {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.at += 1;
            }
        }

        fn expect(&mut self, byte: u8) -> Result<(), String> {
            self.space();
            if self.peek() == Some(byte) {
                self.at += 1;
                Ok(())
            } else {
                Err(self.error(&format!("expected '{}'", byte as char)))
            }
        }

        fn value(&mut self, depth: usize) -> Result<Value, String> {
            if depth > MAX_DEPTH {
                return Err(self.error("nested too deeply"));
            }
            self.space();
            match self.peek() {
                Some(b'{') => self.object(depth),
                Some(b'[') => self.array(depth),
                Some(b'"') => self.string().map(Value::String),
                Some(b't') => self.literal("true", Value::Bool(true)),
                Some(b'f') => self.literal("false", Value::Bool(false)),
                Some(b'n') => self.literal("null", Value::Null),
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => Err(self.error("expected a value")),
            }
        }

        fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
            if self.bytes[self.at..].starts_with(word.as_bytes()) {
                self.at += word.len();
                Ok(value)
            } else {
                Err(self.error("expected a literal"))
            }
        }

        fn number(&mut self) -> Result<Value, String> {
            let start = self.at;
            if self.peek() == Some(b'-') {
                self.at += 1;
            }
            let digits = |p: &mut Self| {
                let from = p.at;
                while matches!(p.peek(), Some(b'0'..=b'9')) {
                    p.at += 1;
                }
                p.at > from
            };
            if !digits(self) {
                return Err(self.error("expected digits"));
            }
            if self.peek() == Some(b'.') {
                self.at += 1;
                if !digits(self) {
                    return Err(self.error("expected digits after '.'"));
                }
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                self.at += 1;
                if matches!(self.peek(), Some(b'+' | b'-')) {
                    self.at += 1;
                }
                if !digits(self) {
                    return Err(self.error("expected exponent digits"));
                }
            }
            // The bytes are ASCII digits and signs, so this cannot fail.
            Ok(Value::Number(String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned()))
        }

        fn hex4(&mut self) -> Result<u32, String> {
            let digits = self.bytes.get(self.at..self.at + 4).ok_or_else(|| self.error("short \\u escape"))?;
            let text = std::str::from_utf8(digits).map_err(|_| self.error("bad \\u escape"))?;
            let value = u32::from_str_radix(text, 16).map_err(|_| self.error("bad \\u escape"))?;
            self.at += 4;
            Ok(value)
        }

        fn string(&mut self) -> Result<String, String> {
            self.at += 1; // opening quote
            let mut out: Vec<u8> = Vec::new();
            loop {
                let byte = self.peek().ok_or_else(|| self.error("unterminated string"))?;
                self.at += 1;
                match byte {
                    b'"' => break,
                    b'\\' => {
                        let escape = self.peek().ok_or_else(|| self.error("unterminated escape"))?;
                        self.at += 1;
                        let c = match escape {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => {
                                let unit = self.hex4()?;
                                let code = if (0xD800..0xDC00).contains(&unit) {
                                    if !self.bytes[self.at..].starts_with(b"\\u") {
                                        return Err(self.error("lone surrogate"));
                                    }
                                    self.at += 2;
                                    let low = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&low) {
                                        return Err(self.error("lone surrogate"));
                                    }
                                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                                } else {
                                    unit
                                };
                                char::from_u32(code).ok_or_else(|| self.error("lone surrogate"))?
                            }
                            _ => return Err(self.error("unknown escape")),
                        };
                        let mut buffer = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                    }
                    0x00..=0x1F => return Err(self.error("control character in string")),
                    _ => out.push(byte),
                }
            }
            // The input is a &str, so raw bytes are valid UTF-8, and escapes were encoded as UTF-8.
            String::from_utf8(out).map_err(|_| self.error("invalid UTF-8"))
        }

        fn array(&mut self, depth: usize) -> Result<Value, String> {
            self.at += 1;
            let mut items = Vec::new();
            self.space();
            if self.peek() == Some(b']') {
                self.at += 1;
                return Ok(Value::Array(items));
            }
            loop {
                items.push(self.value(depth + 1)?);
                self.space();
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b']') => {
                        self.at += 1;
                        return Ok(Value::Array(items));
                    }
                    _ => return Err(self.error("expected ',' or ']'")),
                }
            }
        }

        fn object(&mut self, depth: usize) -> Result<Value, String> {
            self.at += 1;
            let mut members = Vec::new();
            self.space();
            if self.peek() == Some(b'}') {
                self.at += 1;
                return Ok(Value::Object(members));
            }
            loop {
                self.space();
                if self.peek() != Some(b'"') {
                    return Err(self.error("expected a key"));
                }
                let key = self.string()?;
                self.expect(b':')?;
                let value = self.value(depth + 1)?;
                members.push((key, value));
                self.space();
                match self.peek() {
                    Some(b',') => self.at += 1,
                    Some(b'}') => {
                        self.at += 1;
                        return Ok(Value::Object(members));
                    }
                    _ => return Err(self.error("expected ',' or '}'")),
                }
            }
        }
    }

    /// `text` as a JSON string literal, quotes included.
    pub fn quote(text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 2);
        out.push('"');
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }
}

// =================================================================================================
// The plugin.
// =================================================================================================

const COMPONENT_NAME: &str = "counter-rs";
const BUTTON_ID: &str = "count";

/// The host's table, stored by the entry point (owned by the host, valid until the process exits).
static HOST: AtomicPtr<StradaHostApiV1> = AtomicPtr::new(ptr::null_mut());

fn host() -> Option<&'static StradaHostApiV1> {
    // SAFETY: the pointer is either null or the host table, which lives until the process exits.
    unsafe { HOST.load(Ordering::Acquire).as_ref() }
}

/// Borrows `text` as a `strada_string` for the duration of one call.
fn borrowed(text: &str) -> StradaString {
    StradaString { data: text.as_ptr().cast(), length: text.len() as u64 }
}

/// Copies a borrowed `strada_string`; `None` when it is NULL with a length, or not UTF-8.
///
/// # Safety
/// `s` must point to `s.length` readable bytes (the header's contract).
unsafe fn owned(s: StradaString) -> Option<String> {
    if s.length == 0 {
        return Some(String::new());
    }
    if s.data.is_null() {
        return None;
    }
    let length = usize::try_from(s.length).ok()?;
    // SAFETY: the caller guarantees `length` readable bytes at `data`.
    let bytes = unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), length) };
    std::str::from_utf8(bytes).ok().map(str::to_owned)
}

fn log(level: StradaLogLevel, text: &str) {
    if let Some(host) = host() {
        if let Some(log) = host.log {
            // SAFETY: a host function from the table, called with the table and a borrowed string.
            unsafe { log(host, level, borrowed(text)) }
        }
    }
}

fn status_name(status: StradaStatus) -> &'static str {
    match status {
        STRADA_OK => "ok",
        STRADA_ERR_INVALID_ARGUMENT => "invalid argument",
        -2 => "not found",
        STRADA_ERR_GONE => "the page is gone",
        -4 => "wrong thread",
        _ => "failed",
    }
}

/// Runs `body`, turning a panic into a log line and `fallback`: no unwinding crosses into the host.
fn guard<R>(what: &str, fallback: R, body: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            // Logging itself must not panic out of here either.
            let _ = catch_unwind(|| log(STRADA_LOG_ERROR, &format!("{what} panicked: {reason}")));
            fallback
        }
    }
}

/// One component instance: one page's `counter-rs`.
struct Instance {
    host_instance: *mut HostInstance,
    /// Id of the last `connect` message (replies go to it).
    connect_id: Option<String>,
    count: u64,
}

impl Instance {
    fn receive(&mut self, text: &str) {
        let message = match json::parse(text) {
            Ok(message) => message,
            Err(error) => return log(STRADA_LOG_WARNING, &format!("ignored a malformed message: {error}")),
        };
        let (Some(id), Some(event)) = (
            message.get("id").and_then(json::Value::as_str),
            message.get("event").and_then(json::Value::as_str),
        ) else {
            return log(STRADA_LOG_WARNING, "ignored a message without a string id and event");
        };
        match event {
            "connect" => {
                self.connect_id = Some(id.to_owned());
                let title = message
                    .get("data")
                    .and_then(|data| data.get("title"))
                    .and_then(json::Value::as_str)
                    .filter(|title| !title.is_empty())
                    .unwrap_or("Count");
                self.show_button(title);
            }
            "disconnect" => {
                self.connect_id = None;
                self.remove_button();
            }
            other => log(STRADA_LOG_DEBUG, &format!("ignored event \"{other}\" (#{id})")),
        }
    }

    fn show_button(&self, title: &str) {
        let Some(set_button) = host().and_then(|h| h.set_button) else { return };
        let button = StradaButtonV1 {
            struct_size: std::mem::size_of::<StradaButtonV1>() as u32,
            placement: STRADA_PLACEMENT_END,
            id: borrowed(BUTTON_ID),
            title: borrowed(title),
            icon_name: borrowed(""),
            enabled: 1,
            style: STRADA_BUTTON_STYLE_SUGGESTED,
            reserved: [0; 6],
        };
        // SAFETY: main thread (we are inside a host call); `button` and its strings outlive the call.
        let status = unsafe { set_button(host().unwrap(), self.host_instance, &button) };
        if status != STRADA_OK {
            log(STRADA_LOG_WARNING, &format!("set_button refused: {} ({status})", status_name(status)));
        }
    }

    fn remove_button(&self) {
        let Some(remove_button) = host().and_then(|h| h.remove_button) else { return };
        // SAFETY: as in show_button.
        let status = unsafe { remove_button(host().unwrap(), self.host_instance, borrowed(BUTTON_ID)) };
        if status != STRADA_OK && status != STRADA_ERR_GONE {
            log(STRADA_LOG_WARNING, &format!("remove_button refused: {} ({status})", status_name(status)));
        }
    }

    fn pressed(&mut self, control_id: &str) {
        if control_id != BUTTON_ID {
            return;
        }
        let Some(id) = self.connect_id.as_deref() else {
            return log(STRADA_LOG_WARNING, "button pressed before any connect message; nothing to reply to");
        };
        self.count += 1;
        let reply_json = format!(
            r#"{{"id":{},"component":{},"event":"connect","data":{{"count":{}}}}}"#,
            json::quote(id),
            json::quote(COMPONENT_NAME),
            self.count
        );
        let Some(reply) = host().and_then(|h| h.reply) else { return };
        // SAFETY: main thread (inside control_activated); the JSON outlives the call.
        let status = unsafe { reply(host().unwrap(), self.host_instance, borrowed(&reply_json)) };
        match status {
            STRADA_OK => {}
            STRADA_ERR_GONE => log(STRADA_LOG_INFO, &format!("count {} not sent: the page is gone", self.count)),
            _ => log(STRADA_LOG_ERROR, &format!("reply refused: {} ({status})", status_name(status))),
        }
    }
}

/// The instance behind a plugin handle, or `None` for NULL.
///
/// # Safety
/// `instance` must be NULL or a pointer returned by `create_instance` and not yet destroyed.
unsafe fn instance_from<'a>(handle: *mut PluginInstance) -> Option<&'a mut Instance> {
    // SAFETY: per the caller's contract, a live Box<Instance> or NULL.
    unsafe { handle.cast::<Instance>().as_mut() }
}

unsafe extern "C" fn create_instance(
    _context: *mut c_void,
    component_name: *const c_char,
    host_instance: *mut HostInstance,
) -> *mut PluginInstance {
    guard("create_instance", ptr::null_mut(), || {
        if component_name.is_null() || host_instance.is_null() {
            return ptr::null_mut();
        }
        // SAFETY: the host passes a NUL-terminated name, borrowed for this call.
        let name = unsafe { CStr::from_ptr(component_name) };
        if name.to_bytes() != COMPONENT_NAME.as_bytes() {
            return ptr::null_mut();
        }
        let instance = Box::new(Instance { host_instance, connect_id: None, count: 0 });
        Box::into_raw(instance).cast::<PluginInstance>()
    })
}

unsafe extern "C" fn receive(handle: *mut PluginInstance, message_json: StradaString) {
    guard("receive", (), || {
        // SAFETY: the handle is ours (header contract); the string is borrowed for this call.
        let (Some(instance), Some(text)) = (unsafe { instance_from(handle) }, unsafe { owned(message_json) }) else {
            return log(STRADA_LOG_WARNING, "receive: no instance, or the message is not UTF-8");
        };
        instance.receive(&text);
    })
}

unsafe extern "C" fn control_activated(handle: *mut PluginInstance, control_id: StradaString) {
    guard("control_activated", (), || {
        // SAFETY: as in receive.
        if let (Some(instance), Some(id)) = (unsafe { instance_from(handle) }, unsafe { owned(control_id) }) {
            instance.pressed(&id);
        }
    })
}

unsafe extern "C" fn destroy_instance(handle: *mut PluginInstance) {
    guard("destroy_instance", (), || {
        if !handle.is_null() {
            // SAFETY: created by Box::into_raw in create_instance; the host destroys each handle once.
            drop(unsafe { Box::from_raw(handle.cast::<Instance>()) });
        }
    })
}

/// Static data with raw pointers: immutable and valid for the life of the library, so shareable.
#[repr(transparent)]
struct Shared<T>(T);
// SAFETY: the wrapped values are never mutated and only point at other statics.
unsafe impl<T> Sync for Shared<T> {}

static COMPONENT_NAMES: Shared<[*const c_char; 1]> = Shared([c"counter-rs".as_ptr()]);

static PLUGIN: Shared<StradaPluginV1> = Shared(StradaPluginV1 {
    struct_size: std::mem::size_of::<StradaPluginV1>() as u32,
    abi_major: STRADA_PLUGIN_ABI_MAJOR,
    abi_minor: STRADA_PLUGIN_ABI_MINOR,
    component_count: 1,
    plugin_id: c"dev.example.counter-rs".as_ptr(),
    plugin_version: c"1.0.0".as_ptr(),
    component_names: &COMPONENT_NAMES.0 as *const [*const c_char; 1] as *const *const c_char,
    plugin_context: ptr::null_mut(),
    create_instance: Some(create_instance),
    receive: Some(receive),
    lifecycle: None,
    control_activated: Some(control_activated),
    destroy_instance: Some(destroy_instance),
    shutdown: None, // no threads, nothing global to release
    get_extension: None,
});

/// The one exported symbol (ABI 1).
///
/// # Safety
/// Called by the host as specified in strada_plugin.h.
#[no_mangle]
pub unsafe extern "C" fn strada_plugin_entry_v1(
    host: *const StradaHostApiV1,
    out_plugin: *mut *const StradaPluginV1,
) -> StradaStatus {
    guard("strada_plugin_entry_v1", STRADA_ERR_INVALID_ARGUMENT, || {
        if host.is_null() || out_plugin.is_null() {
            return STRADA_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: non-null host table, valid until the process exits.
        let table = unsafe { &*host };
        // Read only fields that `struct_size` covers: this plugin calls up to remove_button.
        let needed = std::mem::offset_of!(StradaHostApiV1, remove_button) + std::mem::size_of::<usize>();
        if table.abi_major != STRADA_PLUGIN_ABI_MAJOR
            || (table.struct_size as usize) < needed
            || table.log.is_none()
            || table.reply.is_none()
            || table.set_button.is_none()
            || table.remove_button.is_none()
        {
            return STRADA_ERR_INVALID_ARGUMENT;
        }
        HOST.store(host.cast_mut(), Ordering::Release);
        // SAFETY: out_plugin is non-null and writable (header contract).
        unsafe { *out_plugin = &PLUGIN.0 };
        STRADA_OK
    })
}
