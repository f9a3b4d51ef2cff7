//! The Strada plugin ABI 1.0 (`strada_plugin.h`) for Rust, with the standard library only. You need not
//! touch this file: write your component in `lib.rs` against [`Component`] and [`Page`], and export it with
//! [`export_plugin!`](crate::export_plugin).
//!
//! What it does for you, as the header's rules ask:
//!  - `#[repr(C)]` mirrors of the header's structs, their layout checked at compile time (64-bit Linux);
//!  - no panic crosses into the host: every function the host calls runs in [`guard`], which logs a panic
//!    through the host and returns a neutral value;
//!  - borrowed strings are copied before the call returns; the plugin's description and names are statics;
//!  - each host status is returned as a `Result`, so a failure cannot go unnoticed.

use crate::json::Json;
use std::ffi::{CStr, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

// MARK: The header's types, field for field

pub const STRADA_PLUGIN_ABI_MAJOR: u32 = 1;
pub const STRADA_PLUGIN_ABI_MINOR: u32 = 0;
/// `STRADA_HOST_API_V1_MIN_SIZE_1_0`: ABI 1.0's table, which has every function used here.
pub const STRADA_HOST_API_V1_MIN_SIZE_1_0: u32 = 88;

/// A status a host function returned (`STRADA_OK` is `Ok`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status(pub i32);

impl Status {
    pub const OK: i32 = 0;
    pub const INVALID_ARGUMENT: Status = Status(-1);
    pub const NOT_FOUND: Status = Status(-2);
    /// The instance was destroyed or its page has gone away: normal, not an error.
    pub const GONE: Status = Status(-3);
    pub const WRONG_THREAD: Status = Status(-4);
    pub const FAILED: Status = Status(-5);

    fn result(status: i32) -> Result<(), Status> {
        if status == Self::OK { Ok(()) } else { Err(Status(status)) }
    }
}

/// `strada_log_level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum LogLevel {
    Debug = 0,
    Info = 1,
    Warning = 2,
    Error = 3,
}

/// `strada_string`: a borrowed UTF-8 (pointer, length) pair, not NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct StradaString {
    pub data: *const c_char,
    pub length: u64,
}

impl StradaString {
    /// Borrows `text` for a call into the host.
    pub fn borrowed(text: &str) -> Self {
        StradaString { data: text.as_ptr().cast(), length: text.len() as u64 }
    }

    /// A copy of the text, or `None` when it is not UTF-8 (or NULL with a length).
    ///
    /// # Safety
    /// `data` must point to `length` readable bytes (the header's promise for strings it passes).
    pub unsafe fn to_owned_string(self) -> Option<String> {
        if self.length == 0 {
            return Some(String::new());
        }
        if self.data.is_null() {
            return None;
        }
        // SAFETY: the caller's promise above.
        let bytes = unsafe { std::slice::from_raw_parts(self.data.cast::<u8>(), self.length as usize) };
        String::from_utf8(bytes.to_vec()).ok()
    }
}

/// `strada_host_instance`: the host's handle for one instance. Opaque.
#[repr(C)]
pub struct HostInstance {
    _private: [u8; 0],
}

/// `strada_plugin_instance`: the plugin's handle; here a `Box` of the component.
#[repr(C)]
pub struct PluginInstance {
    _private: [u8; 0],
}

/// `strada_button_v1`.
#[repr(C)]
pub struct ButtonV1 {
    pub struct_size: u32,
    pub placement: i32,
    pub id: StradaString,
    pub title: StradaString,
    pub icon_name: StradaString,
    pub enabled: u8,
    pub style: u8,
    pub reserved: [u8; 6],
}

/// `strada_host_api_v1`: the functions the host gives the plugin.
#[repr(C)]
pub struct HostApiV1 {
    pub struct_size: u32,
    pub abi_major: u32,
    pub abi_minor: u32,
    pub reserved: u32,
    pub host_context: *mut c_void,
    pub reply: Option<unsafe extern "C" fn(*const HostApiV1, *mut HostInstance, StradaString) -> i32>,
    pub log: Option<unsafe extern "C" fn(*const HostApiV1, i32, StradaString)>,
    pub codec_settings_json: Option<unsafe extern "C" fn(*const HostApiV1) -> *const c_char>,
    pub run_on_main_thread:
        Option<unsafe extern "C" fn(*const HostApiV1, Option<unsafe extern "C" fn(*mut c_void)>, *mut c_void) -> i32>,
    pub set_button: Option<unsafe extern "C" fn(*const HostApiV1, *mut HostInstance, *const ButtonV1) -> i32>,
    pub remove_button: Option<unsafe extern "C" fn(*const HostApiV1, *mut HostInstance, StradaString) -> i32>,
    pub get_extension: Option<unsafe extern "C" fn(*const HostApiV1, *const c_char) -> *const c_void>,
    pub reply_to_event:
        Option<unsafe extern "C" fn(*const HostApiV1, *mut HostInstance, StradaString, StradaString) -> i32>,
}

/// `strada_plugin_v1`: what the plugin says about itself.
#[repr(C)]
pub struct PluginV1 {
    pub struct_size: u32,
    pub abi_major: u32,
    pub abi_minor: u32,
    pub component_count: u32,
    pub plugin_id: *const c_char,
    pub plugin_version: *const c_char,
    pub component_names: *const *const c_char,
    pub plugin_context: *mut c_void,
    pub create_instance:
        Option<unsafe extern "C" fn(*mut c_void, *const c_char, *mut HostInstance) -> *mut PluginInstance>,
    pub receive: Option<unsafe extern "C" fn(*mut PluginInstance, StradaString)>,
    pub lifecycle: Option<unsafe extern "C" fn(*mut PluginInstance, i32)>,
    pub control_activated: Option<unsafe extern "C" fn(*mut PluginInstance, StradaString)>,
    pub destroy_instance: Option<unsafe extern "C" fn(*mut PluginInstance)>,
    pub shutdown: Option<unsafe extern "C" fn(*mut c_void)>,
    pub get_extension: Option<unsafe extern "C" fn(*mut c_void, *const c_char) -> *const c_void>,
}

// The layouts SDK/CStradaPlugin/layout_checks.c pins (LP64): a drift fails the build.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<StradaString>() == 16);
    assert!(size_of::<ButtonV1>() == 64);
    assert!(offset_of!(ButtonV1, enabled) == 56);
    assert!(size_of::<HostApiV1>() == STRADA_HOST_API_V1_MIN_SIZE_1_0 as usize);
    assert!(offset_of!(HostApiV1, reply) == 24);
    assert!(offset_of!(HostApiV1, set_button) == 56);
    assert!(offset_of!(HostApiV1, reply_to_event) == 80);
    assert!(size_of::<PluginV1>() == 104);
    assert!(offset_of!(PluginV1, create_instance) == 48);
    assert!(offset_of!(PluginV1, get_extension) == 96);
};

/// Makes a static of raw pointers shareable: everything in it is immutable and lives until the process exits.
#[repr(transparent)]
pub struct Shared<T>(pub T);
// SAFETY: only ever read, never written, after it is built at compile time.
unsafe impl<T> Sync for Shared<T> {}

// MARK: What a component sees

/// A component: one instance per page that uses it. The host calls these on its main thread, one at a time.
pub trait Component: Sized + 'static {
    /// The component name the page registers, e.g. `c"share-sheet"` (ASCII letters, digits, `-`, `_`).
    const NAME: &'static CStr;
    /// A new instance for one page; `page` is how it talks to that page.
    fn new(page: Page) -> Self;
    /// A message from the page.
    fn receive(&mut self, message: Message);
    /// A control this instance showed was pressed; `id` is the id it gave, e.g. `"greet"`.
    fn control_activated(&mut self, _id: &str) {}
}

/// One message from the page: `{"id", "component", "event", "data"}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub id: String,
    pub component: String,
    pub event: String,
    /// The message's data: an object (`{}` when the page sent none).
    pub data: Json,
}

impl Message {
    /// Reads a wire message; `None` when it is not one.
    pub fn parse(text: &str) -> Option<Message> {
        let json = Json::parse(text)?;
        let field = |name: &str| json.get(name).and_then(Json::as_str).map(str::to_string);
        let data = match json.get("data") {
            None | Some(Json::Null) => Json::Object(Vec::new()),
            Some(object @ Json::Object(_)) => object.clone(),
            Some(_) => return None,
        };
        Some(Message { id: field("id")?, component: field("component")?, event: field("event")?, data })
    }

    /// The whole wire message replying to this one with `data` (same id, component and event), for
    /// [`Page::reply`].
    pub fn reply_with(&self, data: Json) -> String {
        Json::object([
            ("id", Json::from(self.id.as_str())),
            ("component", Json::from(self.component.as_str())),
            ("event", Json::from(self.event.as_str())),
            ("data", data),
        ])
        .to_string()
    }
}

/// Where a header-bar button goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Start = 0,
    End = 1,
}

/// How a header-bar button looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonStyle {
    Normal = 0,
    /// The page's primary action.
    Suggested = 1,
    Destructive = 2,
}

/// A header-bar button (`strada_button_v1`).
#[derive(Clone, Debug)]
pub struct Button<'a> {
    /// Unique within the instance; a press calls [`Component::control_activated`] with it.
    pub id: &'a str,
    pub title: &'a str,
    /// A freedesktop icon name, or `""` for a text button.
    pub icon_name: &'a str,
    pub enabled: bool,
    pub placement: Placement,
    pub style: ButtonStyle,
}

/// One page's side of an instance: the host functions that act on it. Valid while the instance lives.
pub struct Page {
    instance: *mut HostInstance,
}

impl Page {
    /// Sends `message_json`, a whole wire message (see [`Message::reply_with`]), to the page.
    pub fn reply(&self, message_json: &str) -> Result<(), Status> {
        let (host, reply) = host_function(|host| host.reply)?;
        // SAFETY: the host's table and instance handle, a string borrowed for the call.
        Status::result(unsafe { reply(host, self.instance, StradaString::borrowed(message_json)) })
    }

    /// Replies to the last `event` message this instance received, with `data` (an object) as its data.
    pub fn reply_to_event(&self, event: &str, data: &Json) -> Result<(), Status> {
        let (host, reply_to_event) = host_function(|host| host.reply_to_event)?;
        let data = data.to_string();
        let (event, data) = (StradaString::borrowed(event), StradaString::borrowed(&data));
        // SAFETY: as in `reply`.
        Status::result(unsafe { reply_to_event(host, self.instance, event, data) })
    }

    /// Shows, or updates, a header-bar button of this instance.
    pub fn set_button(&self, button: &Button) -> Result<(), Status> {
        let (host, set_button) = host_function(|host| host.set_button)?;
        let button = ButtonV1 {
            struct_size: std::mem::size_of::<ButtonV1>() as u32,
            placement: button.placement as i32,
            id: StradaString::borrowed(button.id),
            title: StradaString::borrowed(button.title),
            icon_name: StradaString::borrowed(button.icon_name),
            enabled: button.enabled as u8,
            style: button.style as u8,
            reserved: [0; 6],
        };
        // SAFETY: as in `reply`; the button and its strings are borrowed for the call.
        Status::result(unsafe { set_button(host, self.instance, &button) })
    }

    /// Removes this instance's button `id` (no press is reported).
    pub fn remove_button(&self, id: &str) -> Result<(), Status> {
        let (host, remove_button) = host_function(|host| host.remove_button)?;
        // SAFETY: as in `reply`.
        Status::result(unsafe { remove_button(host, self.instance, StradaString::borrowed(id)) })
    }
}

/// Writes one line to the host's log, attributed to this plugin. Any thread.
pub fn log(level: LogLevel, text: &str) {
    if let Ok((host, log)) = host_function(|host| host.log) {
        // SAFETY: the host's table, a string borrowed for the call.
        unsafe { log(host, level as i32, StradaString::borrowed(text)) }
    }
}

// MARK: The glue the host calls

static HOST: AtomicPtr<HostApiV1> = AtomicPtr::new(ptr::null_mut());

/// The host's table and one of its functions; `FAILED` before the entry point ran or when the host has none.
fn host_function<F>(pick: impl FnOnce(&HostApiV1) -> Option<F>) -> Result<(*const HostApiV1, F), Status> {
    let host = HOST.load(Ordering::Acquire);
    // SAFETY: set by the entry point to the host's table, valid until the process exits.
    let table = unsafe { host.as_ref() }.ok_or(Status::FAILED)?;
    pick(table).map(|function| (host.cast_const(), function)).ok_or(Status::FAILED)
}

/// Runs `body`, turning a panic into a log line and `fallback`: no unwinding crosses into the host.
pub fn guard<R>(what: &str, fallback: R, body: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        let reason = payload
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let _ = catch_unwind(|| log(LogLevel::Error, &format!("{what} panicked: {reason}")));
        fallback
    })
}

/// `strada_plugin_v1` for component `C`: what [`export_plugin!`](crate::export_plugin) hands the host.
pub const fn describe<C: Component>(
    id: &'static CStr,
    version: &'static CStr,
    names: &'static [*const c_char; 1],
) -> PluginV1 {
    PluginV1 {
        struct_size: std::mem::size_of::<PluginV1>() as u32,
        abi_major: STRADA_PLUGIN_ABI_MAJOR,
        abi_minor: STRADA_PLUGIN_ABI_MINOR,
        component_count: 1,
        plugin_id: id.as_ptr(),
        plugin_version: version.as_ptr(),
        component_names: names.as_ptr(),
        plugin_context: ptr::null_mut(),
        create_instance: Some(create_instance::<C>),
        receive: Some(receive::<C>),
        lifecycle: None,
        control_activated: Some(control_activated::<C>),
        destroy_instance: Some(destroy_instance::<C>),
        shutdown: None,
        get_extension: None,
    }
}

/// The entry point's work: checks the host's table, keeps it, hands over `plugin`.
///
/// # Safety
/// Called by `strada_plugin_entry_v1` with the host's arguments (strada_plugin.h).
pub unsafe fn entry(host: *const HostApiV1, out_plugin: *mut *const PluginV1, plugin: &'static PluginV1) -> i32 {
    guard("strada_plugin_entry_v1", Status::INVALID_ARGUMENT.0, || {
        // SAFETY: the host's table, valid until the process exits, or NULL.
        let Some(table) = (unsafe { host.as_ref() }) else { return Status::INVALID_ARGUMENT.0 };
        if out_plugin.is_null()
            || table.abi_major != STRADA_PLUGIN_ABI_MAJOR
            || table.struct_size < STRADA_HOST_API_V1_MIN_SIZE_1_0
        {
            return Status::INVALID_ARGUMENT.0;
        }
        HOST.store(host.cast_mut(), Ordering::Release);
        // SAFETY: non-null and writable (header contract).
        unsafe { *out_plugin = plugin };
        Status::OK
    })
}

unsafe extern "C" fn create_instance<C: Component>(
    _context: *mut c_void,
    _name: *const c_char,
    host_instance: *mut HostInstance,
) -> *mut PluginInstance {
    guard("create_instance", ptr::null_mut(), || {
        if host_instance.is_null() {
            return ptr::null_mut();
        }
        Box::into_raw(Box::new(C::new(Page { instance: host_instance }))).cast()
    })
}

/// The component behind a handle from `create_instance`.
unsafe fn component<'a, C: Component>(handle: *mut PluginInstance) -> Option<&'a mut C> {
    // SAFETY: handles are the boxes create_instance made, until destroy_instance.
    unsafe { handle.cast::<C>().as_mut() }
}

unsafe extern "C" fn receive<C: Component>(handle: *mut PluginInstance, message_json: StradaString) {
    guard("receive", (), || {
        // SAFETY: our handle; the string is borrowed for this call (copied here).
        let (Some(component), Some(text)) =
            (unsafe { component::<C>(handle) }, unsafe { message_json.to_owned_string() })
        else {
            return log(LogLevel::Warning, "receive: no instance, or the message is not UTF-8");
        };
        match Message::parse(&text) {
            Some(message) => component.receive(message),
            None => log(LogLevel::Warning, "ignored a malformed message"),
        }
    })
}

unsafe extern "C" fn control_activated<C: Component>(handle: *mut PluginInstance, control_id: StradaString) {
    guard("control_activated", (), || {
        // SAFETY: as in `receive`.
        if let (Some(component), Some(id)) =
            (unsafe { component::<C>(handle) }, unsafe { control_id.to_owned_string() })
        {
            component.control_activated(&id);
        }
    })
}

unsafe extern "C" fn destroy_instance<C: Component>(handle: *mut PluginInstance) {
    guard("destroy_instance", (), || {
        if !handle.is_null() {
            // SAFETY: the box create_instance made; the host never uses the handle again.
            drop(unsafe { Box::from_raw(handle.cast::<C>()) });
        }
    })
}

/// Exports the plugin: `strada_plugin_entry_v1`, the one symbol strada-host looks for.
///
/// `export_plugin!(MyComponent, id: c"com.example.my-plugin", version: c"0.1.0");`
#[macro_export]
macro_rules! export_plugin {
    ($component:ty, id: $id:expr, version: $version:expr) => {
        /// The plugin's entry point (ABI 1), called by the host once per load.
        ///
        /// # Safety
        /// Called by the host as strada_plugin.h specifies.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn strada_plugin_entry_v1(
            host: *const $crate::strada::HostApiV1,
            out_plugin: *mut *const $crate::strada::PluginV1,
        ) -> i32 {
            use $crate::strada::{Component, Shared, describe};
            static NAMES: Shared<[*const ::std::ffi::c_char; 1]> = Shared([<$component as Component>::NAME.as_ptr()]);
            static PLUGIN: Shared<$crate::strada::PluginV1> = Shared(describe::<$component>($id, $version, &NAMES.0));
            // SAFETY: the host's own arguments.
            unsafe { $crate::strada::entry(host, out_plugin, &PLUGIN.0) }
        }
    };
}
