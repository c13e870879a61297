//! The vectors of `tests/data/rng_vectors.json`, written from an independent
//! implementation, read with a minimal JSON scanner (the file holds only
//! objects, arrays, strings and unsigned integers).

use std::collections::BTreeMap;

/// The repository's shared vectors: two levels above this crate.
const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/rng_vectors.json"
);
/// Compiled in, so that a moved or missing file is a build error, not a silent pass.
const TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/rng_vectors.json"
));

#[derive(Debug, Clone)]
pub(crate) enum Json {
    Num(u64),
    Str(String),
    List(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub(crate) fn num(&self) -> u64 {
        match self {
            Json::Num(n) => *n,
            other => panic!("not a number: {other:?}"),
        }
    }
    pub(crate) fn nums(&self) -> Vec<u64> {
        self.list().iter().map(Json::num).collect()
    }
    pub(crate) fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    pub(crate) fn list(&self) -> &[Json] {
        match self {
            Json::List(items) => items,
            other => panic!("not a list: {other:?}"),
        }
    }
    pub(crate) fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(map) => &map[key],
            other => panic!("not an object: {other:?}"),
        }
    }
}

fn parse(text: &str) -> Json {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let value = parse_value(bytes, &mut pos);
    skip_space(bytes, &mut pos);
    assert_eq!(pos, bytes.len(), "trailing text in {PATH}");
    value
}

fn skip_space(b: &[u8], pos: &mut usize) {
    while *pos < b.len() && b[*pos].is_ascii_whitespace() {
        *pos += 1;
    }
}

fn parse_value(b: &[u8], pos: &mut usize) -> Json {
    skip_space(b, pos);
    match b[*pos] {
        b'{' => {
            *pos += 1;
            let mut map = BTreeMap::new();
            loop {
                skip_space(b, pos);
                if b[*pos] == b'}' {
                    *pos += 1;
                    return Json::Obj(map);
                }
                let Json::Str(key) = parse_value(b, pos) else {
                    panic!("object key")
                };
                skip_space(b, pos);
                assert_eq!(b[*pos], b':');
                *pos += 1;
                map.insert(key, parse_value(b, pos));
                skip_space(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
        }
        b'[' => {
            *pos += 1;
            let mut items = Vec::new();
            loop {
                skip_space(b, pos);
                if b[*pos] == b']' {
                    *pos += 1;
                    return Json::List(items);
                }
                items.push(parse_value(b, pos));
                skip_space(b, pos);
                if b[*pos] == b',' {
                    *pos += 1;
                }
            }
        }
        b'"' => {
            let start = *pos + 1;
            let mut end = start;
            while b[end] != b'"' {
                end += if b[end] == b'\\' { 2 } else { 1 };
            }
            *pos = end + 1;
            Json::Str(String::from_utf8(b[start..end].to_vec()).unwrap())
        }
        c if c.is_ascii_digit() => {
            let start = *pos;
            while *pos < b.len() && b[*pos].is_ascii_digit() {
                *pos += 1;
            }
            Json::Num(
                std::str::from_utf8(&b[start..*pos])
                    .unwrap()
                    .parse()
                    .unwrap(),
            )
        }
        c => panic!("unexpected {:?} at {pos} in {PATH}", c as char),
    }
}

/// The parsed file.
pub(crate) fn vectors() -> Json {
    parse(TEXT)
}
