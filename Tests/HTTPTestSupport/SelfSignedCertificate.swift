import Foundation

/// A certificate for 127.0.0.1 and localhost, valid for a day, made by `openssl` at run time
/// (P-256): no key is checked in, and none outlives the test that made it.
public final class SelfSignedCertificate: Sendable {
    public let directory: URL
    /// The certificate, PEM; curl trusts it with `--cacert`.
    public let certificatePath: String
    /// Its private key, unencrypted PEM (PKCS#8).
    public let keyPath: String
    public let certificate: String
    public let key: String

    /// Blocks while openssl runs: call it from `onThread`.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("cert.pem").path
        keyPath = directory.appendingPathComponent("key.pem").path
        let made = try ExternalTool.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", keyPath, "-out", certificatePath,
            ])
        guard made.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw ExternalTool.Failure(description: "openssl req failed (\(made.status)): \(made.errorOutput)")
        }
        certificate = try String(contentsOfFile: certificatePath, encoding: .utf8)
        key = try String(contentsOfFile: keyPath, encoding: .utf8)
    }

    /// `curl https://127.0.0.1:<port><target>` trusting this certificate alone, so the handshake
    /// verifies the server as a real client would. The output ends with a line holding the
    /// status code ("000" when there was no answer). Blocks: call it from `onThread`.
    public func curl(port: Int, _ target: String, options: [String] = []) throws -> ExternalTool.Result {
        try ExternalTool.run(
            "curl",
            ["--silent", "--show-error", "--max-time", "\(Int(30 * RawHTTPClient.slowdown))", "--cacert", certificatePath]
                + ["--write-out", "\n%{http_code}"] + options + ["https://127.0.0.1:\(port)\(target)"])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
