//! Short names for what a wasm module imports from its own wasm-bindgen script.
//!
//! wasm-bindgen names each import `__wbg_<method>_<16 hex digits>` (`__wbg_setAttribute_0c3e…`),
//! and a page's first load carries every name twice: in the wasm's import section and as a key
//! of the script's imports object. Hex digits do not compress, so those names were some 4 KB of a
//! lesson's brotli bytes. The build renames them `a`, `b`, … `aa`, … in both files, the same way.
//! Only the imports of the script's own module (`./<name>_bg.js`) are renamed: a snippet's
//! imports (`./snippets/…`) are looked up by the names its module exports.

/// `wasm` and its script `js` with short names for the imports of the script's own module, or
/// `None` when either has a shape this does not know (the build then stops rather than ship a
/// module whose imports no longer match).
pub fn with_short_import_names(wasm: &[u8], js: &str) -> Option<(Vec<u8>, String)> {
    let (wasm, renamed) = renamed_imports(wasm)?;
    let mut js = js.to_string();
    for (old, new) in &renamed {
        js = with_key_renamed(&js, old, new)?;
    }
    Some((wasm, js))
}

/// The `i`-th short name: `a` … `z`, `A` … `Z`, `aa`, `ab`, ….
fn short_name(mut i: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let base = LETTERS.len();
    let mut name = Vec::new();
    loop {
        name.push(LETTERS.get(i % base).copied().unwrap_or(b'_'));
        if i < base {
            break;
        }
        i = i / base - 1;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// `js` with the object key `old` (an identifier followed by `:`) written `new`, or `None` unless
/// it stands exactly once.
fn with_key_renamed(js: &str, old: &str, new: &str) -> Option<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut found = None;
    for (at, _) in js.match_indices(old) {
        let before = js.get(..at)?.chars().next_back();
        let after = js.get(at + old.len()..)?;
        if before.is_some_and(is_ident) || !after.trim_start_matches([' ', '\t']).starts_with(':') {
            continue;
        }
        if found.replace(at).is_some() {
            return None;
        }
    }
    let at = found?;
    Some(format!(
        "{}{new}{}",
        js.get(..at)?,
        js.get(at + old.len()..)?
    ))
}

/// Reads a wasm binary.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(out)
    }

    /// An unsigned LEB128 number of up to 32 bits.
    fn leb(&mut self) -> Option<u32> {
        let mut value = 0u32;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= u32::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn name(&mut self) -> Option<&'a str> {
        let n = self.leb()? as usize;
        std::str::from_utf8(self.take(n)?).ok()
    }

    /// Limits: a flag byte (bit 0: a maximum follows), the minimum, the maximum.
    fn limits(&mut self) -> Option<()> {
        let flags = self.byte()?;
        self.leb()?;
        if flags & 1 == 1 {
            self.leb()?;
        }
        Some(())
    }

    /// What one import is: a function, a table, a memory, a global or a tag.
    fn import_kind(&mut self) -> Option<()> {
        match self.byte()? {
            0 => self.leb().map(drop),
            1 => {
                self.byte()?; // the element type (funcref, externref)
                self.limits()
            }
            2 => self.limits(),
            3 => self.take(2).map(drop), // the value type and mutability
            4 => {
                self.byte()?;
                self.leb().map(drop)
            }
            _ => None,
        }
    }
}

fn push_leb(out: &mut Vec<u8>, mut n: u32) {
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn push_name(out: &mut Vec<u8>, name: &str) -> Option<()> {
    push_leb(out, u32::try_from(name.len()).ok()?);
    out.extend_from_slice(name.as_bytes());
    Some(())
}

/// Each renamed import: its old name and its new one.
type Renamed = Vec<(String, String)>;

/// `wasm` with its import section's own-script names shortened, and each old name with its new.
fn renamed_imports(wasm: &[u8]) -> Option<(Vec<u8>, Renamed)> {
    let mut r = Reader { bytes: wasm, at: 0 };
    let mut out = r.take(8)?.to_vec();
    if out.get(..4) != Some(b"\0asm".as_slice()) {
        return None;
    }
    let mut renamed: Renamed = Vec::new();
    while r.at < wasm.len() {
        let id = r.byte()?;
        let size = r.leb()? as usize;
        let body = r.take(size)?;
        if id != 2 {
            out.push(id);
            push_leb(&mut out, u32::try_from(size).ok()?);
            out.extend_from_slice(body);
            continue;
        }
        let mut s = Reader { bytes: body, at: 0 };
        let count = s.leb()?;
        let mut section = Vec::with_capacity(body.len());
        push_leb(&mut section, count);
        for _ in 0..count {
            let module = s.name()?;
            let field = s.name()?;
            let kind_at = s.at;
            s.import_kind()?;
            let kind = body.get(kind_at..s.at)?;
            push_name(&mut section, module)?;
            if module.starts_with("./") && module.ends_with("_bg.js") {
                let new = short_name(renamed.len());
                push_name(&mut section, &new)?;
                renamed.push((field.to_string(), new));
            } else {
                push_name(&mut section, field)?;
            }
            section.extend_from_slice(kind);
        }
        if s.at != body.len() {
            return None;
        }
        out.push(2);
        push_leb(&mut out, u32::try_from(section.len()).ok()?);
        out.extend_from_slice(&section);
    }
    Some((out, renamed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with a type section, four imports (two from its script, one from a snippet, a
    /// memory) and a custom section.
    fn module() -> Vec<u8> {
        let mut imports = Vec::new();
        push_leb(&mut imports, 4);
        for (module, field, kind) in [
            ("./m_bg.js", "__wbg_set_0123456789abcdef", vec![0u8, 0]),
            ("./snippets/s/inline0.js", "run_sql", vec![0, 0]),
            ("./m_bg.js", "__wbindgen_init_externref_table", vec![0, 1]),
            ("env", "memory", vec![2, 1, 17, 0x80, 0x01]),
        ] {
            push_name(&mut imports, module).unwrap();
            push_name(&mut imports, field).unwrap();
            imports.extend(kind);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend([1, 7, 2, 0x60, 0, 0, 0x60, 1, 0x7f]); // types: () -> (), (i32) -> ()
        wasm.push(2);
        push_leb(&mut wasm, imports.len() as u32);
        wasm.extend(imports);
        wasm.extend([0, 4, 3, b'a', b'b', b'c']);
        wasm
    }

    #[test]
    fn names_the_scripts_own_imports_short_in_both_files() {
        let js = "const import0 = {\n  __wbg_set_0123456789abcdef: function(a) { f(a); },\n  \
                  __wbindgen_init_externref_table: function() {},\n};\nconst s = { run_sql: 1 };";
        let (wasm, js) = with_short_import_names(&module(), js).expect("a known shape");
        assert_eq!(
            js,
            "const import0 = {\n  a: function(a) { f(a); },\n  b: function() {},\n};\nconst s = { run_sql: 1 };"
        );
        let (again, renamed) = renamed_imports(&wasm).expect("still a module");
        // The snippet's import and the memory keep their names; the rest is byte for byte.
        let names: Vec<&str> = renamed.iter().map(|(old, _)| old.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(again, wasm);
        let text = String::from_utf8_lossy(&wasm);
        assert!(text.contains("run_sql") && text.contains("memory") && text.ends_with("abc"));
        assert!(!text.contains("__wbg_set"));
        // Two names of 26 and 31 bytes now take one each, and the section's size one byte less.
        assert_eq!(wasm.len(), module().len() - 26 - 31 + 2 - 1);
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        // A key missing from the script, or standing twice.
        assert!(with_short_import_names(&module(), "{ __wbg_set_0123456789abcdef: 1 }").is_none());
        let twice = "{ __wbg_set_0123456789abcdef: 1, __wbindgen_init_externref_table: 2 }\n\
                     { __wbg_set_0123456789abcdef : 3 }";
        assert!(with_short_import_names(&module(), twice).is_none());
        // A longer name that starts with the same letters is another key.
        assert_eq!(
            with_key_renamed("{ ab_2: 1, ab: 2, x.ab; }", "ab", "q").as_deref(),
            Some("{ ab_2: 1, q: 2, x.ab; }")
        );
        // Not wasm, or cut short.
        assert!(renamed_imports(b"not wasm at all").is_none());
        let mut cut = module();
        cut.truncate(cut.len() - 10);
        assert!(renamed_imports(&cut).is_none());
    }

    #[test]
    fn short_names_count_through_the_letters() {
        let names: Vec<String> = [0, 1, 25, 26, 51, 52, 53, 52 + 52 * 52 - 1, 52 + 52 * 52]
            .into_iter()
            .map(short_name)
            .collect();
        assert_eq!(names, ["a", "b", "z", "A", "Z", "aa", "ab", "ZZ", "aaa"]);
    }
}
