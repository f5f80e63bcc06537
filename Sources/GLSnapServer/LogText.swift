/// Text made safe for one log line: control characters (C0, DEL, C1: CR, LF, ESC and the rest)
/// and the backslash become `\xNN`, so a request cannot break a line, forge one, or send a
/// terminal escape sequence to whoever reads the log.
func logEscaped(_ s: String) -> String {
    // Most lines need nothing: C1 characters are 0xC2 0x80-0x9F in UTF-8.
    guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C || $0 == 0xC2 }) else { return s }
    var out = ""
    out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
    for u in s.unicodeScalars {
        let v = u.value
        if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x5C {
            out += "\\x"
            let h = String(v, radix: 16)
            out += h.count == 1 ? "0" + h : h
        } else {
            out.unicodeScalars.append(u)
        }
    }
    return out
}
