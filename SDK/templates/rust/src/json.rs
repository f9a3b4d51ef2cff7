//! A small JSON value for messages, with the standard library only: `Json::parse` reads a whole document
//! (RFC 8259, nesting limited to 128 levels), `to_string()` writes one. Enough for a message's data; use a
//! crate such as serde_json instead if you already depend on one.

use std::fmt::{self, Write};

/// A JSON value. Objects keep their members in order; `get` finds the first member of a name.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value `text` holds, or `None` when it is not exactly one JSON value.
    pub fn parse(text: &str) -> Option<Json> {
        let mut reader = Reader { bytes: text.as_bytes(), at: 0, depth: 0 };
        let value = reader.value()?;
        reader.space();
        (reader.at == reader.bytes.len()).then_some(value)
    }

    /// An object with these members, in this order.
    pub fn object<'a>(members: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Object(members.into_iter().map(|(name, value)| (name.to_string(), value)).collect())
    }

    /// Member `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(key, _)| key == name).map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        if let Json::String(text) = self { Some(text) } else { None }
    }

    pub fn as_f64(&self) -> Option<f64> {
        if let Json::Number(number) = self { Some(*number) } else { None }
    }

    pub fn as_bool(&self) -> Option<bool> {
        if let Json::Bool(value) = self { Some(*value) } else { None }
    }
}

impl From<&str> for Json {
    fn from(text: &str) -> Json {
        Json::String(text.to_string())
    }
}

impl From<String> for Json {
    fn from(text: String) -> Json {
        Json::String(text)
    }
}

impl From<f64> for Json {
    fn from(number: f64) -> Json {
        Json::Number(number)
    }
}

impl From<u32> for Json {
    fn from(number: u32) -> Json {
        Json::Number(number.into())
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Json {
        Json::Bool(value)
    }
}

/// Compact JSON text: `{"greeting":"Hello","presses":2}`. A number that is not finite is written as null.
impl fmt::Display for Json {
    fn fmt(&self, out: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Json::Null => out.write_str("null"),
            Json::Bool(value) => write!(out, "{value}"),
            Json::Number(number) if !number.is_finite() => out.write_str("null"),
            Json::Number(number) => write!(out, "{number}"),
            Json::String(text) => write_string(out, text),
            Json::Array(items) => {
                out.write_char('[')?;
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.write_char(',')?;
                    }
                    write!(out, "{item}")?;
                }
                out.write_char(']')
            }
            Json::Object(members) => {
                out.write_char('{')?;
                for (index, (name, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.write_char(',')?;
                    }
                    write_string(out, name)?;
                    write!(out, ":{value}")?;
                }
                out.write_char('}')
            }
        }
    }
}

fn write_string(out: &mut fmt::Formatter, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for character in text.chars() {
        match character {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            control if (control as u32) < 0x20 => write!(out, "\\u{:04x}", control as u32)?,
            other => out.write_char(other)?,
        }
    }
    out.write_char('"')
}

const MAX_DEPTH: usize = 128;

/// A cursor over the text; every method returns `None` on the first thing that is not JSON.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn value(&mut self) -> Option<Json> {
        self.space();
        match self.peek()? {
            b'{' => self.nested(|reader| reader.object()),
            b'[' => self.nested(|reader| reader.array()),
            b'"' => self.string().map(Json::String),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'n' => self.literal("null", Json::Null),
            _ => self.number(),
        }
    }

    fn nested(&mut self, body: impl FnOnce(&mut Self) -> Option<Json>) -> Option<Json> {
        self.depth += 1;
        let value = if self.depth > MAX_DEPTH { None } else { body(self) };
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Option<Json> {
        self.at += 1; // {
        let mut members = Vec::new();
        if self.eat(b'}') {
            return Some(Json::Object(members));
        }
        loop {
            self.space();
            let name = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            members.push((name, self.value()?));
            if self.eat(b'}') {
                return Some(Json::Object(members));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn array(&mut self) -> Option<Json> {
        self.at += 1; // [
        let mut items = Vec::new();
        if self.eat(b']') {
            return Some(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Some(Json::Array(items));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Option<Json> {
        let found = self.bytes[self.at..].starts_with(word.as_bytes());
        found.then(|| {
            self.at += word.len();
            value
        })
    }

    fn number(&mut self) -> Option<Json> {
        let start = self.at;
        let digits = |reader: &mut Self| {
            let first = reader.at;
            while matches!(reader.peek(), Some(b'0'..=b'9')) {
                reader.at += 1;
            }
            reader.at > first
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let leading_zero = self.peek() == Some(b'0');
        if !digits(self) || (leading_zero && self.at - start > 1 + usize::from(self.bytes[start] == b'-')) {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        text.parse().ok().map(Json::Number)
    }

    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.at += 1;
        let mut text = String::new();
        loop {
            let start = self.at;
            while !matches!(self.peek()?, b'"' | b'\\') {
                if self.bytes[self.at] < 0x20 {
                    return None; // control characters must be escaped
                }
                self.at += 1;
            }
            text.push_str(std::str::from_utf8(&self.bytes[start..self.at]).ok()?);
            self.at += 1;
            if self.bytes[self.at - 1] == b'"' {
                return Some(text);
            }
            let escaped = match self.peek()? {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    self.at += 1;
                    let unit = self.hex4()?;
                    let code = if (0xD800..0xDC00).contains(&unit) {
                        // A surrogate pair: \uD83D\uDE00.
                        if !self.bytes[self.at..].starts_with(b"\\u") {
                            return None;
                        }
                        self.at += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&low) {
                            return None;
                        }
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        unit
                    };
                    text.push(char::from_u32(code)?);
                    continue;
                }
                _ => return None,
            };
            self.at += 1;
            text.push(escaped);
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.at..self.at + 4)?;
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    }
}
