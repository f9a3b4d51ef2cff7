"""Real X input for strada-webdriver: the XTEST extension (libXtst) through ctypes, Python's standard library
only. Events made with XTEST enter the X server as a device's would: GTK, WebKit and the page see them as a
person's input (`event.isTrusted` is true).

    screen = X11()                        # $DISPLAY
    window = screen.window_of(pid)        # the top-level window of a process (_NET_WM_PID), or None
    screen.move(window, 120, 40)          # window coordinates (device pixels)
    screen.button(1, True); screen.button(1, False)
    screen.key(screen.keysym("Return"), True)
"""
import ctypes
import ctypes.util
import os

c_ulong, c_int, c_uint, c_void_p, POINTER, byref = (
    ctypes.c_ulong, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER, ctypes.byref)


class XError(RuntimeError):
    pass


def _library(name, soname):
    return ctypes.CDLL(ctypes.util.find_library(name) or soname)


class X11:
    """One connection to the X server, used from one thread at a time (the caller locks)."""

    def __init__(self, display=None):
        display = display or os.environ.get("DISPLAY")
        if not display:
            raise XError("no X display ($DISPLAY is not set)")
        self.x = x = _library("X11", "libX11.so.6")
        self.xtst = xtst = _library("Xtst", "libXtst.so.6")
        x.XOpenDisplay.restype = c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XDefaultRootWindow.restype = c_ulong
        x.XDefaultRootWindow.argtypes = [c_void_p]
        x.XInternAtom.restype = c_ulong
        x.XInternAtom.argtypes = [c_void_p, ctypes.c_char_p, c_int]
        x.XStringToKeysym.restype = c_ulong
        x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x.XGetKeyboardMapping.restype = POINTER(c_ulong)
        x.XGetKeyboardMapping.argtypes = [c_void_p, ctypes.c_ubyte, c_int, POINTER(c_int)]
        x.XChangeKeyboardMapping.argtypes = [c_void_p, c_int, c_int, POINTER(c_ulong), c_int]
        x.XQueryTree.argtypes = [c_void_p, c_ulong, POINTER(c_ulong), POINTER(c_ulong),
                                 POINTER(POINTER(c_ulong)), POINTER(c_uint)]
        x.XGetWindowProperty.argtypes = [c_void_p, c_ulong, c_ulong, ctypes.c_long, ctypes.c_long, c_int, c_ulong,
                                         POINTER(c_ulong), POINTER(c_int), POINTER(c_ulong), POINTER(c_ulong),
                                         POINTER(POINTER(ctypes.c_ubyte))]
        x.XTranslateCoordinates.argtypes = [c_void_p, c_ulong, c_ulong, c_int, c_int, POINTER(c_int), POINTER(c_int),
                                            POINTER(c_ulong)]
        x.XGetGeometry.argtypes = [c_void_p, c_ulong, POINTER(c_ulong), POINTER(c_int), POINTER(c_int),
                                   POINTER(c_uint), POINTER(c_uint), POINTER(c_uint), POINTER(c_uint)]
        x.XSetInputFocus.argtypes = [c_void_p, c_ulong, c_int, c_ulong]
        x.XGetInputFocus.argtypes = [c_void_p, POINTER(c_ulong), POINTER(c_int)]
        x.XFree.argtypes = [c_void_p]
        x.XSync.argtypes = [c_void_p, c_int]
        x.XDisplayKeycodes.argtypes = [c_void_p, POINTER(c_int), POINTER(c_int)]
        x.XCloseDisplay.argtypes = [c_void_p]
        xtst.XTestFakeMotionEvent.argtypes = [c_void_p, c_int, c_int, c_int, c_ulong]
        xtst.XTestFakeButtonEvent.argtypes = [c_void_p, c_uint, c_int, c_ulong]
        xtst.XTestFakeKeyEvent.argtypes = [c_void_p, c_uint, c_int, c_ulong]
        xtst.XTestQueryExtension.argtypes = [c_void_p, POINTER(c_int), POINTER(c_int), POINTER(c_int),
                                             POINTER(c_int)]
        self.display = x.XOpenDisplay(display.encode())
        if not self.display:
            raise XError("cannot open X display %s" % display)
        ints = [c_int() for _ in range(4)]
        if not xtst.XTestQueryExtension(self.display, *[byref(i) for i in ints]):
            raise XError("the X server has no XTEST extension")
        self.root = x.XDefaultRootWindow(self.display)
        self._load_keymap()
        self._borrowed = {}  # keysym → spare keycode it was mapped to

    def close(self):
        for keycode in self._borrowed.values():
            self._map(keycode, 0)
        self.x.XCloseDisplay(self.display)

    # Windows

    def window_of(self, pid):
        """The largest mapped top-level window whose _NET_WM_PID is `pid` (the main window), or None."""
        atom = self.x.XInternAtom(self.display, b"_NET_WM_PID", 1)
        if not atom:
            return None
        found = []
        for window in self._children(self.root):
            if self._cardinal(window, atom) == pid:
                width, height = self.size(window)
                if width > 1 and height > 1:
                    found.append((width * height, window))
        return max(found)[1] if found else None

    def _children(self, window):
        root, parent, children, count = c_ulong(), c_ulong(), POINTER(c_ulong)(), c_uint()
        if not self.x.XQueryTree(self.display, window, byref(root), byref(parent), byref(children), byref(count)):
            return []
        result = [children[i] for i in range(count.value)]
        if children:
            self.x.XFree(children)
        return result

    def _cardinal(self, window, atom):
        kind, size, items, rest = c_ulong(), c_int(), c_ulong(), c_ulong()
        data = POINTER(ctypes.c_ubyte)()
        status = self.x.XGetWindowProperty(self.display, window, atom, 0, 1, 0, 6,  # XA_CARDINAL
                                           byref(kind), byref(size), byref(items), byref(rest), byref(data))
        if status != 0 or not data:
            return None
        value = ctypes.cast(data, POINTER(c_ulong))[0] if items.value else None
        self.x.XFree(data)
        return value

    def size(self, window):
        root, x, y, width, height, border, depth = c_ulong(), c_int(), c_int(), c_uint(), c_uint(), c_uint(), c_uint()
        if not self.x.XGetGeometry(self.display, window, byref(root), byref(x), byref(y), byref(width), byref(height),
                                   byref(border), byref(depth)):
            raise XError("window %#x is gone" % window)
        return width.value, height.value

    def origin(self, window):
        """The window's top-left corner on the screen."""
        x, y, child = c_int(), c_int(), c_ulong()
        self.x.XTranslateCoordinates(self.display, window, self.root, 0, 0, byref(x), byref(y), byref(child))
        return x.value, y.value

    def focus(self, window, pid):
        """Gives the window the keyboard, as a window manager does when a person clicks it — unless one of the
        process's windows has it already (a dialog over the window keeps it, as it would for a person)."""
        focused, revert = c_ulong(), c_int()
        self.x.XGetInputFocus(self.display, byref(focused), byref(revert))
        atom = self.x.XInternAtom(self.display, b"_NET_WM_PID", 1)
        if focused.value > 1 and atom and self._cardinal(focused.value, atom) == pid:
            return
        self.x.XSetInputFocus(self.display, window, 2, 0)  # RevertToParent, CurrentTime
        self.x.XSync(self.display, 0)

    # Input

    def move(self, window, x, y):
        left, top = self.origin(window)
        self.xtst.XTestFakeMotionEvent(self.display, -1, int(left + x), int(top + y), 0)
        self.x.XSync(self.display, 0)

    def button(self, number, pressed):
        self.xtst.XTestFakeButtonEvent(self.display, number, 1 if pressed else 0, 0)
        self.x.XSync(self.display, 0)

    def keysym(self, name):
        keysym = self.x.XStringToKeysym(name.encode())
        if not keysym:
            raise XError("no X keysym %r" % name)
        return keysym

    @staticmethod
    def keysym_of_character(character):
        code = ord(character)
        if character in "\n\r":
            return 0xFF0D  # Return
        if character == "\t":
            return 0xFF09
        if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
            return code
        return 0x1000000 + code

    def key(self, keysym, pressed, shifted=None):
        """Presses or releases the key for `keysym`. A keysym on a key's shifted level is typed with Shift; one on
        no key borrows a spare keycode (as xdotool does). `shifted` says whether Shift is held already."""
        keycode, level = self._keycode(keysym)
        shift = self._keymap_keycode(0xFFE1)  # Shift_L
        if pressed and level == 1 and not shifted:
            self.xtst.XTestFakeKeyEvent(self.display, shift, 1, 0)
        self.xtst.XTestFakeKeyEvent(self.display, keycode, 1 if pressed else 0, 0)
        if not pressed and level == 1 and not shifted:
            self.xtst.XTestFakeKeyEvent(self.display, shift, 0, 0)
        self.x.XSync(self.display, 0)

    def _load_keymap(self):
        low, high = c_int(), c_int()
        self.x.XDisplayKeycodes(self.display, byref(low), byref(high))
        self.low, self.high = low.value, high.value
        per = c_int()
        count = self.high - self.low + 1
        mapping = self.x.XGetKeyboardMapping(self.display, self.low, count, byref(per))
        self.keymap = {}
        self.spare = []
        for index in range(count):
            syms = [mapping[index * per.value + level] for level in range(per.value)]
            keycode = self.low + index
            if not any(syms):
                self.spare.append(keycode)
            for level, sym in enumerate(syms[:2]):
                if sym and sym not in self.keymap:
                    self.keymap[sym] = (keycode, level)
        self.x.XFree(mapping)

    def _keymap_keycode(self, keysym):
        return self.keymap[keysym][0]

    def _keycode(self, keysym):
        if keysym in self.keymap:
            return self.keymap[keysym]
        if keysym not in self._borrowed:
            if not self.spare:
                # Give back the keycode borrowed longest ago.
                old, keycode = next(iter(self._borrowed.items()))
                del self._borrowed[old]
            else:
                keycode = self.spare.pop()
            self._map(keycode, keysym)
            self._borrowed[keysym] = keycode
        return self._borrowed[keysym], 0

    def _map(self, keycode, keysym):
        syms = (c_ulong * 2)(keysym, keysym)
        self.x.XChangeKeyboardMapping(self.display, keycode, 2, syms, 1)
        self.x.XSync(self.display, 0)
