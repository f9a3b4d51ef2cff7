//! A fake strada-host for tests: a host table with every function filled in, which records what the plugin
//! asks for (replies, buttons, log lines) instead of showing it, and a page to drive one instance with.

use hello_world::strada::{ButtonV1, HostApiV1, HostInstance, PluginInstance, PluginV1, StradaString};
use std::cell::RefCell;
use std::ffi::{CStr, c_char, c_void};

/// What the plugin asked the fake host for, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Reply(String),
    ReplyToEvent { event: String, data: String },
    SetButton { id: String, title: String, enabled: bool },
    RemoveButton(String),
    Log { level: i32, text: String },
}

type Work = (unsafe extern "C" fn(*mut c_void), *mut c_void);

// Per thread: cargo runs tests on several threads, and the plugin calls the host on the caller's.
thread_local! {
    static CALLS: RefCell<Vec<Call>> = const { RefCell::new(Vec::new()) };
    /// Events the page has sent, for reply_to_event (the host answers only a received event).
    static RECEIVED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// run_on_main_thread's work, run after the plugin call in progress returns (as the host does).
    static QUEUED: RefCell<Vec<Work>> = const { RefCell::new(Vec::new()) };
}

fn text(string: StradaString) -> String {
    // SAFETY: the plugin passes readable (pointer, length) pairs, as the header asks.
    unsafe { string.to_owned_string() }.expect("the plugin passed a string that is not UTF-8")
}

fn record(call: Call) {
    CALLS.with_borrow_mut(|calls| calls.push(call));
}

unsafe extern "C" fn reply(_: *const HostApiV1, instance: *mut HostInstance, json: StradaString) -> i32 {
    if instance.is_null() {
        return -1;
    }
    record(Call::Reply(text(json)));
    0
}

unsafe extern "C" fn log(_: *const HostApiV1, level: i32, line: StradaString) {
    let line = text(line);
    eprintln!("plugin log ({level}): {line}");
    record(Call::Log { level, text: line });
}

unsafe extern "C" fn codec_settings_json(_: *const HostApiV1) -> *const c_char {
    c"{\"dates\":\"deferredToDate\",\"keys\":\"useDefaultKeys\"}".as_ptr()
}

unsafe extern "C" fn run_on_main_thread(
    _: *const HostApiV1,
    work: Option<unsafe extern "C" fn(*mut c_void)>,
    context: *mut c_void,
) -> i32 {
    match work {
        Some(work) => {
            QUEUED.with_borrow_mut(|queued| queued.push((work, context)));
            0
        }
        None => -1,
    }
}

unsafe extern "C" fn set_button(_: *const HostApiV1, instance: *mut HostInstance, button: *const ButtonV1) -> i32 {
    // SAFETY: a button the plugin passes for the call, or NULL.
    let Some(button) = (unsafe { button.as_ref() }) else { return -1 };
    if instance.is_null() || button.struct_size < 64 || button.id.length == 0 {
        return -1;
    }
    record(Call::SetButton { id: text(button.id), title: text(button.title), enabled: button.enabled == 1 });
    0
}

unsafe extern "C" fn remove_button(_: *const HostApiV1, instance: *mut HostInstance, id: StradaString) -> i32 {
    if instance.is_null() {
        return -1;
    }
    record(Call::RemoveButton(text(id)));
    0
}

unsafe extern "C" fn get_extension(_: *const HostApiV1, _id: *const c_char) -> *const c_void {
    std::ptr::null() // no extensions here, as a host may answer (check for NULL)
}

unsafe extern "C" fn reply_to_event(
    _: *const HostApiV1,
    instance: *mut HostInstance,
    event: StradaString,
    data: StradaString,
) -> i32 {
    let event = text(event);
    if instance.is_null() || event.is_empty() {
        return -1;
    }
    if !RECEIVED.with_borrow(|received| received.contains(&event)) {
        return -2; // STRADA_ERR_NOT_FOUND: no message of that event yet
    }
    record(Call::ReplyToEvent { event, data: text(data) });
    0
}

struct Table(HostApiV1);
// SAFETY: read-only after it is built; host_context is NULL.
unsafe impl Sync for Table {}

static HOST: Table = Table(HostApiV1 {
    struct_size: std::mem::size_of::<HostApiV1>() as u32,
    abi_major: 1,
    abi_minor: 0,
    reserved: 0,
    host_context: std::ptr::null_mut(),
    reply: Some(reply),
    log: Some(log),
    codec_settings_json: Some(codec_settings_json),
    run_on_main_thread: Some(run_on_main_thread),
    set_button: Some(set_button),
    remove_button: Some(remove_button),
    get_extension: Some(get_extension),
    reply_to_event: Some(reply_to_event),
});

/// The plugin, loaded through its entry point as the host does, and one instance of its component.
pub struct FakePage {
    plugin: &'static PluginV1,
    instance: *mut PluginInstance,
    _host_instance: Box<u8>, // its address is the host instance handle
}

impl FakePage {
    /// Calls the plugin's entry point with the fake host's table and creates an instance of `component`.
    pub fn open(component: &CStr) -> FakePage {
        let mut plugin: *const PluginV1 = std::ptr::null();
        // SAFETY: the entry point with a complete host table, valid for the whole test run.
        let status = unsafe { hello_world::strada_plugin_entry_v1(&HOST.0, &mut plugin) };
        assert_eq!(status, 0, "the entry point refused the fake host");
        // SAFETY: the entry point stored its static description.
        let plugin = unsafe { plugin.as_ref() }.expect("no plugin description");
        let mut host_instance = Box::new(0u8);
        let handle: *mut HostInstance = (&mut *host_instance as *mut u8).cast();
        let create = plugin.create_instance.expect("create_instance is required");
        // SAFETY: as the host calls it: a component name the plugin declared and our handle.
        let instance = unsafe { create(plugin.plugin_context, component.as_ptr(), handle) };
        assert!(!instance.is_null(), "create_instance returned NULL");
        FakePage { plugin, instance, _host_instance: host_instance }
    }

    /// The plugin's description, as the host reads it.
    pub fn plugin(&self) -> &'static PluginV1 {
        self.plugin
    }

    /// The component names the plugin declares.
    pub fn component_names(&self) -> Vec<String> {
        (0..self.plugin.component_count as usize)
            .map(|index| {
                // SAFETY: component_count NUL-terminated names (header contract).
                unsafe { CStr::from_ptr(*self.plugin.component_names.add(index)) }.to_string_lossy().into_owned()
            })
            .collect()
    }

    /// Delivers `json` as a message from the page; returns the calls the plugin made meanwhile.
    pub fn send(&self, json: &str) -> Vec<Call> {
        if let Some(event) = hello_world::json::Json::parse(json).and_then(|m| m.get("event").cloned()) {
            RECEIVED.with_borrow_mut(|received| received.extend(event.as_str().map(str::to_string)));
        }
        let receive = self.plugin.receive.expect("receive is required");
        // SAFETY: our instance and a message borrowed for the call, as the host delivers it.
        Self::calls_during(|| unsafe { receive(self.instance, StradaString::borrowed(json)) })
    }

    /// Presses the instance's control `id`, as the host does when the user clicks it; returns the calls made.
    pub fn press(&self, id: &str) -> Vec<Call> {
        let activated = self.plugin.control_activated.expect("the plugin has no control_activated");
        // SAFETY: as in `send`.
        Self::calls_during(|| unsafe { activated(self.instance, StradaString::borrowed(id)) })
    }

    /// Runs `body` (one call into the plugin), then the work it queued; returns the host calls made.
    fn calls_during(body: impl FnOnce()) -> Vec<Call> {
        CALLS.with_borrow_mut(Vec::clear);
        body();
        while let Some((work, context)) = QUEUED.with_borrow_mut(|queued| queued.pop()) {
            // SAFETY: the plugin's work and context, run once on this (the main) thread.
            unsafe { work(context) };
        }
        CALLS.with_borrow_mut(std::mem::take)
    }
}

impl Drop for FakePage {
    fn drop(&mut self) {
        if let Some(destroy) = self.plugin.destroy_instance {
            // SAFETY: our instance, destroyed once.
            unsafe { destroy(self.instance) };
        }
    }
}
