/// The DATA section as sent: every line ends in CRLF (bare CR or LF included), a line that
/// starts with "." gets a second one (RFC 5321 4.5.2), and the terminating "." line follows.
public enum SMTPDataEncoder {
    public static func encode(_ message: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.utf8.count + 64)
        var atLineStart = true
        var previousCR = false
        for byte in message.utf8 {
            if byte == UInt8(ascii: "\n") {
                if !previousCR { out.append(UInt8(ascii: "\r")) }
                out.append(byte)
                atLineStart = true
                previousCR = false
                continue
            }
            if previousCR {
                // A bare CR: complete it as a line break.
                out.append(UInt8(ascii: "\n"))
                atLineStart = true
            }
            previousCR = byte == UInt8(ascii: "\r")
            if previousCR { out.append(byte); continue }
            if atLineStart, byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
            atLineStart = false
            out.append(byte)
        }
        if previousCR { out.append(UInt8(ascii: "\n")); atLineStart = true }
        if !atLineStart { out += Array("\r\n".utf8) }
        out += Array(".\r\n".utf8)
        return out
    }
}
