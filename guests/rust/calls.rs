// wasmeval's driver support for Rust `calls` cases, put after the candidate and the driver.
//
// `__wasmeval_calls::case(i, || call)` reports case i: "start <i>", then the value the call
// returned as plain data ("value <i> <json>"), then "end <i> returned null"; `report` writes
// "\n<token> <words>\n", the token being argv[1]. JSON forms, as the harness's: integers, floats
// (Rust's shortest text that reads back to the same float; nan and the infinities as
// {"$float": ..}), bool, char and strings as strings, vectors, slices and arrays as arrays,
// `None` as null and `Some(x)` as x, tuples as {"$tuple": [..]}, maps as {"$dict": [[k, v], ..]}.
// A return type not listed here does not compile: such a task is not converted.
#[allow(dead_code)]
mod __wasmeval_calls {
    use ::std::collections::{BTreeMap, HashMap};
    use ::std::fmt::Write as _;
    use ::std::io::Write as _;

    pub fn report(words: &str) {
        let token = ::std::env::args().nth(1).unwrap_or_default();
        let mut out = ::std::io::stdout();
        let _ = out.write_all(::std::format!("\n{token} {words}\n").as_bytes());
        let _ = out.flush();
    }

    pub fn case<T: Show>(index: usize, call: impl FnOnce() -> T) {
        report(&::std::format!("start {index}"));
        let returned = call();
        let mut words = ::std::format!("value {index} ");
        returned.show(&mut words);
        report(&words);
        report(&::std::format!("end {index} returned null"));
    }

    pub trait Show {
        fn show(&self, out: &mut String);
    }

    macro_rules! integers {
        ($($t:ty),*) => {$(
            impl Show for $t {
                fn show(&self, out: &mut String) {
                    let _ = ::std::write!(out, "{self}");
                }
            }
        )*};
    }
    integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

    macro_rules! floats {
        ($($t:ty),*) => {$(
            impl Show for $t {
                fn show(&self, out: &mut String) {
                    if self.is_nan() {
                        out.push_str("{\"$float\":\"nan\"}");
                    } else if self.is_infinite() {
                        out.push_str(if *self > 0.0 { "{\"$float\":\"inf\"}" } else { "{\"$float\":\"-inf\"}" });
                    } else {
                        let _ = ::std::write!(out, "{self:?}");
                    }
                }
            }
        )*};
    }
    floats!(f32, f64);

    impl Show for bool {
        fn show(&self, out: &mut String) {
            out.push_str(if *self { "true" } else { "false" });
        }
    }

    impl Show for str {
        fn show(&self, out: &mut String) {
            out.push('"');
            for c in self.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        let _ = ::std::write!(out, "\\u{:04x}", c as u32);
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
    }

    impl Show for String {
        fn show(&self, out: &mut String) {
            self.as_str().show(out)
        }
    }

    impl Show for char {
        fn show(&self, out: &mut String) {
            self.to_string().show(out)
        }
    }

    impl<T: Show + ?Sized> Show for &T {
        fn show(&self, out: &mut String) {
            (**self).show(out)
        }
    }

    impl<T: Show> Show for Box<T> {
        fn show(&self, out: &mut String) {
            (**self).show(out)
        }
    }

    impl<T: Show> Show for [T] {
        fn show(&self, out: &mut String) {
            out.push('[');
            for (i, item) in self.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                item.show(out);
            }
            out.push(']');
        }
    }

    impl<T: Show> Show for Vec<T> {
        fn show(&self, out: &mut String) {
            self.as_slice().show(out)
        }
    }

    impl<T: Show, const N: usize> Show for [T; N] {
        fn show(&self, out: &mut String) {
            self.as_slice().show(out)
        }
    }

    impl<T: Show> Show for Option<T> {
        fn show(&self, out: &mut String) {
            match self {
                None => out.push_str("null"),
                Some(value) => value.show(out),
            }
        }
    }

    impl Show for () {
        fn show(&self, out: &mut String) {
            out.push_str("null");
        }
    }

    macro_rules! tuples {
        ($(($($name:ident),+)),*) => {$(
            #[allow(non_snake_case)]
            impl<$($name: Show),+> Show for ($($name,)+) {
                fn show(&self, out: &mut String) {
                    let ($($name,)+) = self;
                    out.push_str("{\"$tuple\":[");
                    let mut first = true;
                    $(
                        if !first { out.push(','); }
                        first = false;
                        $name.show(out);
                    )+
                    let _ = first;
                    out.push_str("]}");
                }
            }
        )*};
    }
    tuples!((A), (A, B), (A, B, C), (A, B, C, D));

    fn pairs<'a, K: Show + 'a, V: Show + 'a>(entries: impl Iterator<Item = (&'a K, &'a V)>, out: &mut String) {
        out.push_str("{\"$dict\":[");
        for (i, (key, value)) in entries.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('[');
            key.show(out);
            out.push(',');
            value.show(out);
            out.push(']');
        }
        out.push_str("]}");
    }

    impl<K: Show, V: Show, S> Show for HashMap<K, V, S> {
        fn show(&self, out: &mut String) {
            pairs(self.iter(), out)
        }
    }

    impl<K: Show, V: Show> Show for BTreeMap<K, V> {
        fn show(&self, out: &mut String) {
            pairs(self.iter(), out)
        }
    }
}
