import Crypto

/// HMAC-SHA256 as the simulator signs with it: webhooks (`Entrupy-Signature` over the raw
/// body) and the signed SDK authorisation request. Lowercase hex, no prefix.
enum SimSignature {
    static func hex(of message: [UInt8], key: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(key.utf8)))
        return code.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
