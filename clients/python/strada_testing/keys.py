"""WebDriver's keys as X key presses: the code points U+E000–U+E05D of the W3C spec's "keyboard actions" table
mapped to X keysyms, other characters typed as themselves; modifiers held until released (or NULL)."""

SPECIAL = {
    0xE001: "Cancel", 0xE002: "Help", 0xE003: "BackSpace", 0xE004: "Tab", 0xE005: "Clear", 0xE006: "Return",
    0xE007: "Return", 0xE008: "Shift_L", 0xE009: "Control_L", 0xE00A: "Alt_L", 0xE00B: "Pause", 0xE00C: "Escape",
    0xE00D: "space", 0xE00E: "Prior", 0xE00F: "Next", 0xE010: "End", 0xE011: "Home", 0xE012: "Left", 0xE013: "Up",
    0xE014: "Right", 0xE015: "Down", 0xE016: "Insert", 0xE017: "Delete", 0xE018: "semicolon", 0xE019: "equal",
    0xE024: "KP_Multiply", 0xE025: "KP_Add", 0xE026: "KP_Separator", 0xE027: "KP_Subtract", 0xE028: "KP_Decimal",
    0xE029: "KP_Divide", 0xE03D: "Meta_L", 0xE040: "Zenkaku_Hankaku", 0xE050: "Shift_R", 0xE051: "Control_R",
    0xE052: "Alt_R", 0xE053: "Meta_R", 0xE054: "KP_Prior", 0xE055: "KP_Next", 0xE056: "KP_End", 0xE057: "KP_Home",
    0xE058: "KP_Left", 0xE059: "KP_Up", 0xE05A: "KP_Right", 0xE05B: "KP_Down", 0xE05C: "KP_Insert",
    0xE05D: "KP_Delete",
}
SPECIAL.update({0xE01A + digit: "KP_%d" % digit for digit in range(10)})
SPECIAL.update({0xE031 + number: "F%d" % (number + 1) for number in range(12)})
MODIFIERS = {0xE008, 0xE009, 0xE00A, 0xE03D, 0xE050, 0xE051, 0xE052, 0xE053}
SHIFTS = {0xE008, 0xE050}
NULL = 0xE000


class KeyboardState:
    """The keys held down in a session (the spec's input state for its key sources) on one X connection."""

    def __init__(self, screen):
        self.screen = screen
        self.held = {}  # WebDriver key value → X keysym, in pressing order
        self.releases = 0  # keys released so far (the page's keyup events)

    def keysym(self, value):
        code = ord(value)
        if code in SPECIAL:
            return self.screen.keysym(SPECIAL[code])
        return self.screen.keysym_of_character(value)

    def shifted(self):
        return any(ord(value) in SHIFTS for value in self.held)

    def action(self, name, value):
        """The actions API's keyDown / keyUp of one key (`value`: one character or a WebDriver key)."""
        if not value or ord(value[0]) == NULL:
            return
        value = value[0]
        if name == "keyDown" and value not in self.held:
            keysym = self.keysym(value)
            self.screen.key(keysym, True, shifted=self.shifted())
            self.held[value] = keysym
        elif name == "keyUp" and value in self.held:
            keysym = self.held.pop(value)
            self.screen.key(keysym, False, shifted=self.shifted())
            self.releases += 1

    def type(self, text):
        """Element send keys: each character pressed and released; a modifier stays down until NULL or the
        end of the text, so "\\ue009a" is Ctrl+A; "\\n" and Enter are Return."""
        pressed_here = []
        for value in text:
            code = ord(value)
            if code == NULL:
                for held in pressed_here:
                    self.action("keyUp", held)
                pressed_here = []
            elif code in MODIFIERS:
                if value in self.held:
                    self.action("keyUp", value)
                    pressed_here = [held for held in pressed_here if held != value]
                else:
                    self.action("keyDown", value)
                    pressed_here.append(value)
            else:
                self.action("keyDown", value)
                self.action("keyUp", value)
        for held in reversed(pressed_here):
            self.action("keyUp", held)

    def release_all(self):
        for value in reversed(list(self.held)):
            self.action("keyUp", value)
