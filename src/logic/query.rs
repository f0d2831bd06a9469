//! A page query's text (`?wm.params=8&wm.prec=int4`): percent-encoding, the pairs under one
//! widget's prefix, and a query with one prefix's keys replaced. Pure; `services::url_state`
//! reads and writes the page's address with it.

/// Whether `b` may stay as it is in a query value (RFC 3986 unreserved characters).
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Percent-encodes `text` for a query key or value.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if unreserved(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes a query key or value: `+` is a space, `%XX` a byte. Malformed escapes stay as they
/// are, and invalid UTF-8 is replaced, so any address decodes to some text.
pub fn decode(text: &str) -> String {
    let hex = |b: &u8| (*b as char).to_digit(16);
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        match b {
            b'+' => out.push(b' '),
            b'%' => match (tail.first().and_then(hex), tail.get(1).and_then(hex)) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    rest = tail.get(2..).unwrap_or_default();
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Splits a query (`?a=1&b=2`, with or without `?`) into decoded pairs, in order. Only the
/// first `?` is the query's mark: `??=1` holds a key `?`, which [`merged`] keeps.
fn pairs(search: &str) -> Vec<(String, String)> {
    search
        .strip_prefix('?')
        .unwrap_or(search)
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(part), String::new()),
        })
        .collect()
}

/// The values under `prefix` (e.g. `wm`) in `search`, keyed without the prefix: `?wm.params=8`
/// gives `[("params", "8")]`. Later duplicates win when looked up with [`value_of`].
pub fn read(search: &str, prefix: &str) -> Vec<(String, String)> {
    let dotted = format!("{prefix}.");
    pairs(search)
        .into_iter()
        .filter_map(|(k, v)| k.strip_prefix(&dotted).map(|k| (k.to_string(), v)))
        .collect()
}

/// The last value for `key` among `values` from [`read`].
pub fn value_of<'a>(values: &'a [(String, String)], key: &str) -> Option<&'a str> {
    values
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `search` with every key under `prefix` replaced by `values` (written as `prefix.key`, in
/// order, after the other keys). Returns `""` for an empty query, else `?…`.
pub fn merged(search: &str, prefix: &str, values: &[(&str, String)]) -> String {
    let dotted = format!("{prefix}.");
    let kept = search
        .strip_prefix('?')
        .unwrap_or(search)
        .split('&')
        .filter(|part| !part.is_empty())
        .filter(|part| {
            let key = part.split_once('=').map_or(*part, |(k, _)| k);
            !decode(key).starts_with(&dotted)
        })
        .map(str::to_string);
    let ours = values
        .iter()
        .map(|(k, v)| format!("{}={}", encode(&format!("{dotted}{k}")), encode(v)));
    let all: Vec<String> = kept.chain(ours).collect();
    if all.is_empty() {
        String::new()
    } else {
        format!("?{}", all.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_its_own_prefix() {
        let v = read("?wm.params=70&wm.prec=fp16&dc.bw=100&x=1", "wm");
        assert_eq!(
            v,
            [
                ("params".to_string(), "70".to_string()),
                ("prec".to_string(), "fp16".to_string())
            ]
        );
        assert_eq!(value_of(&v, "prec"), Some("fp16"));
        assert_eq!(value_of(&v, "bw"), None);
        assert!(read("", "wm").is_empty());
        assert_eq!(
            value_of(&read("wm.a=1&wm.a=2", "wm"), "a"),
            Some("2"),
            "the last value wins"
        );
    }

    #[test]
    fn merges_without_touching_other_keys() {
        let values = [("params", "8".to_string()), ("prec", "int4".to_string())];
        assert_eq!(
            merged("?dc.bw=100&wm.params=70", "wm", &values),
            "?dc.bw=100&wm.params=8&wm.prec=int4"
        );
        assert_eq!(merged("?wm.params=70", "wm", &[]), "");
        assert_eq!(merged("", "wm", &[]), "");
        assert_eq!(merged("?wm.params=1e3", "dc", &[]), "?wm.params=1e3");
    }

    #[test]
    fn encodes_what_a_reader_might_type() {
        assert_eq!(encode("4.85"), "4.85");
        assert_eq!(encode("1 000&x=<b>"), "1%20000%26x%3D%3Cb%3E");
        assert_eq!(decode("1%20000%26x%3D%3Cb%3E"), "1 000&x=<b>");
        assert_eq!(decode("a+b"), "a b");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%C3%97"), "\u{d7}");
    }

    proptest::proptest! {
        #[test]
        fn any_text_survives_the_round_trip(value in "\\PC{0,20}", other in "[a-z0-9.]{0,8}") {
            let search = merged(&format!("?keep={other}"), "wm", &[("params", value.clone())]);
            let back = read(&search, "wm");
            proptest::prop_assert_eq!(value_of(&back, "params"), Some(value.as_str()));
            proptest::prop_assert_eq!(read(&search, "keep").len(), 0);
            proptest::prop_assert!(search.starts_with("?keep="));
        }

        #[test]
        fn decoding_never_panics(text in "\\PC{0,30}") {
            let _ = decode(&text);
            let _ = read(&text, "wm");
        }

        /// Any address, typed or pasted (bytes read as a browser would, lossily), reads as
        /// some pairs, and merging our keys into it keeps every other key as it was.
        #[test]
        fn any_address_reads_and_keeps_other_keys(
            text in crate::logic::fuzz::any_text(),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80),
            values in proptest::collection::vec(("[a-z]{1,6}", crate::logic::fuzz::any_text()), 0..4),
        ) {
            let lossy = String::from_utf8_lossy(&bytes).into_owned();
            for search in [text.clone(), lossy, format!("?{text}#frag")] {
                let _ = decode(&search);
                let values: Vec<(&str, String)> =
                    values.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                let out = merged(&search, "fz", &values);
                let theirs = |s: &str| -> Vec<(String, String)> {
                    pairs(s).into_iter().filter(|(k, _)| !k.starts_with("fz.")).collect()
                };
                proptest::prop_assert_eq!(theirs(&out), theirs(&search));
                let ours = read(&out, "fz");
                proptest::prop_assert_eq!(ours.len(), values.len());
                for (k, v) in &values {
                    proptest::prop_assert_eq!(value_of(&ours, k), values.iter().rev().find(|(x, _)| x == k).map(|(_, v)| v.as_str()));
                    let _ = v;
                }
                // Merging again with the same values changes nothing.
                proptest::prop_assert_eq!(merged(&out, "fz", &values), out.clone());
                // Encoding then decoding gives the text back.
                for (_, v) in &values {
                    proptest::prop_assert_eq!(&decode(&encode(v)), v);
                }
            }
        }
    }
}
