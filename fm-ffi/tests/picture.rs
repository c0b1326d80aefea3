//! `fm_svg_to_png` and `fm_bytes_free`, called as C calls them: a board drawn as PNG
//! (the signature, the size the SVG asks for), and every error path.

use fm::*;
use std::ffi::{c_char, CStr, CString};
use std::ptr;

fn last_error() -> (String, String) {
    let (mut m, mut r): (*mut c_char, *mut c_char) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid out-pointers; the strings are freed below.
    unsafe {
        assert_eq!(fm_last_error_message(&mut m), fm_status::FM_OK);
        assert_eq!(fm_last_error_rule(&mut r), fm_status::FM_OK);
        let out = (
            CStr::from_ptr(m).to_string_lossy().into_owned(),
            CStr::from_ptr(r).to_string_lossy().into_owned(),
        );
        fm_string_free(m);
        fm_string_free(r);
        out
    }
}

fn png(svg: &CStr, scale: f64) -> Result<Vec<u8>, (fm_status, String)> {
    let mut p: *mut u8 = ptr::null_mut();
    let mut n: usize = 0;
    // SAFETY: a NUL-terminated string and valid out-pointers.
    let st = unsafe { fm_svg_to_png(svg.as_ptr(), scale, &mut p, &mut n) };
    if st != fm_status::FM_OK {
        assert!(p.is_null() && n == 0, "nothing written on failure");
        return Err((st, last_error().0));
    }
    // SAFETY: `p` holds `n` bytes until freed.
    let v = unsafe { std::slice::from_raw_parts(p, n) }.to_vec();
    // SAFETY: a live buffer from fm.
    assert_eq!(unsafe { fm_bytes_free(p) }, fm_status::FM_OK);
    Ok(v)
}

#[test]
fn a_board_drawn_as_png_has_the_signature_and_the_svg_size() {
    let m = fm_core::Match::new_builtin("system-demo", 1).unwrap();
    let svg = fm_core::render_svg(m.scenario(), m.state(), &fm_core::RenderOptions::default());
    let size = |name: &str| -> u32 {
        let key = format!(" {name}=\"");
        let at = svg.find(&key).unwrap() + key.len();
        svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap()
    };
    let (w, h) = (size("width"), size("height"));
    let c = CString::new(svg.clone()).unwrap();
    for (scale, (ww, hh)) in [(1.0, (w, h)), (0.5, (w.div_ceil(2), h.div_ceil(2)))] {
        let p = png(&c, scale).unwrap();
        assert_eq!(p[..8], fm_picture::PNG_SIGNATURE);
        assert_eq!(&p[12..16], b"IHDR");
        let dim = |k: usize| u32::from_be_bytes(p[k..k + 4].try_into().unwrap());
        assert_eq!((dim(16), dim(20)), (ww, hh), "scale {scale}");
    }
}

#[test]
fn bad_pictures_and_arguments_are_refused() {
    let ok = c"<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>";
    assert!(png(ok, 1.0).is_ok());
    let (st, msg) = png(c"not svg", 1.0).unwrap_err();
    assert_eq!(st, fm_status::FM_INVALID_JSON);
    assert!(msg.contains("svg: not a picture"), "{msg}");
    assert_eq!(last_error().1, "input");
    for scale in [0.0, -1.0, f64::NAN, f64::INFINITY, 17.0] {
        let (st, msg) = png(ok, scale).unwrap_err();
        assert_eq!(st, fm_status::FM_INVALID_ARGUMENT, "{scale}");
        assert!(
            msg.contains("scale must be a number above 0 and at most 16"),
            "{msg}"
        );
    }
    let huge = c"<svg xmlns='http://www.w3.org/2000/svg' width='9000' height='4'/>";
    let (st, msg) = png(huge, 1.0).unwrap_err();
    assert_eq!(st, fm_status::FM_INVALID_ARGUMENT);
    assert!(msg.contains("each side must be 1 to 8192"), "{msg}");
    let mut p: *mut u8 = ptr::null_mut();
    let mut n = 0usize;
    // SAFETY: NULL arguments are what is tested; the others are valid.
    unsafe {
        assert_eq!(
            fm_svg_to_png(ptr::null(), 1.0, &mut p, &mut n),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_svg_to_png(ok.as_ptr(), 1.0, ptr::null_mut(), &mut n),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_svg_to_png(ok.as_ptr(), 1.0, &mut p, ptr::null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
        let bad_utf8 = [0xffu8, 0];
        assert_eq!(
            fm_svg_to_png(bad_utf8.as_ptr() as *const c_char, 1.0, &mut p, &mut n),
            fm_status::FM_INVALID_UTF8
        );
        assert_eq!(fm_bytes_free(ptr::null_mut()), fm_status::FM_OK);
    }
    // A debug build refuses a buffer freed twice or not its own.
    // SAFETY: valid arguments; the double free is caught by the registry (debug) only.
    if cfg!(debug_assertions) {
        unsafe {
            assert_eq!(
                fm_svg_to_png(ok.as_ptr(), 1.0, &mut p, &mut n),
                fm_status::FM_OK
            );
            assert_eq!(fm_bytes_free(p), fm_status::FM_OK);
            assert_eq!(fm_bytes_free(p), fm_status::FM_INVALID_HANDLE);
            let mut mine = [0u8; 16];
            assert_eq!(
                fm_bytes_free(mine.as_mut_ptr()),
                fm_status::FM_INVALID_HANDLE
            );
        }
    }
}
