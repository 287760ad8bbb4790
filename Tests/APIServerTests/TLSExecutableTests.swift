import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The rowserver executable with --tls-cert and --tls-key", .runsOnce("rowserver processes on SQLite files of their own"))
struct TLSExecutableTests {
    @Test func serveWithACertificatePrintsHTTPSAndAnswersHealthOverTLS() async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let server = try ServerProcess(arguments: ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
        #expect(server.listeningLine.hasSuffix("listening on https://127.0.0.1:\(server.port)"), "\(server.listeningLine)")
        let port = server.port
        let result = try await onThread { try certificate.curl(port: port, "/health") }
        #expect(result.status == 0, "curl: \(result.errorOutput)")
        #expect(result.output.contains(#""status":"ok""#))
        #expect(result.output.hasSuffix("\n200"))
        server.signal(SIGTERM)
        #expect(try await onThread { server.waitForExit() } == 0)
    }

    @Test func serveWithoutACertificatePrintsHTTP() throws {
        let server = try ServerProcess()
        #expect(server.listeningLine.hasSuffix("listening on http://127.0.0.1:\(server.port)"), "\(server.listeningLine)")
    }

    /// Refused before anything listens, with the reason on stderr: 64 is ArgumentParser's
    /// usage error, 1 a start that failed.
    @Test(arguments: [
        (["--tls-cert", "cert.pem"], 64, "--tls-cert and --tls-key go together"),
        (["--tls-key", "key.pem"], 64, "--tls-cert and --tls-key go together"),
        (["--tls-cert", "missing.pem", "--tls-key", "key.pem"], 1, "cannot read --tls-cert"),
        (["--tls-cert", "cert.pem", "--tls-key", "missing.pem"], 1, "cannot read --tls-key"),
        (["--tls-cert", "cert.pem", "--tls-key", "cert.pem"], 1, "the TLS certificate and key were refused"),
    ])
    func unusableTLSFilesStopTheStart(arguments: [String], status: Int32, says: String) async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let database = certificate.directory.appendingPathComponent("test.sqlite").path
        // The arguments name files in the certificate's folder.
        let named = arguments.map { $0.hasSuffix(".pem") ? certificate.directory.appendingPathComponent($0).path : $0 }
        let result = try await onThread {
            try ExternalTool.run(ServerProcess.binaryURL, ["serve", "--port", "0", "--db", database, "--access-log", "off"] + named)
        }
        #expect(result.status == status, "\(result.errorOutput)")
        #expect(result.errorOutput.contains(says), "\(result.errorOutput)")
        #expect(!result.output.contains("listening on"))
    }
}
