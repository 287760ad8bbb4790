import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

/// HTTPS through libmicrohttpd's GnuTLS, met by curl (OpenSSL) with a certificate openssl made
/// at run time: the handshakes are real and verified.
@Suite("TLS: HTTPS with a certificate and key in the configuration")
struct TLSTests {
    /// A live server on an ephemeral port serving HTTPS with `certificate`.
    static func tlsServer(_ certificate: SelfSignedCertificate) throws -> TestServer {
        try TestServer {
            $0.tlsCertificate = certificate.certificate
            $0.tlsKey = certificate.key
        }
    }

    @Test(arguments: [
        (["/hello"], "hello"),
        (["/items/42"], #"{"id":"42"}"#),
        (["/echo", "--data-binary", "sent over TLS"], "sent over TLS"),
        // An async handler: its request is suspended and resumed under TLS.
        (["/slow?ms=50", "--request", "POST"], #"{"slow":true}"#),
    ])
    func verifiedHandshakeAnswersRequests(request: [String], body: String) async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let server = try Self.tlsServer(certificate)
        #expect(server.server.isTLS)
        let port = server.port
        let result = try await onThread { try certificate.curl(port: port, request[0], options: Array(request.dropFirst())) }
        #expect(result.status == 0, "curl: \(result.errorOutput)")
        #expect(result.output == body + "\n200")
    }

    @Test func clientThatDoesNotTrustTheCertificateRefusesIt() async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let server = try Self.tlsServer(certificate)
        let port = server.port
        // Trusting another certificate than the server's: verification is on, so it fails.
        let other = try await onThread { try SelfSignedCertificate() }
        let result = try await onThread { try other.curl(port: port, "/hello") }
        #expect(result.status == 60, "curl: \(result.errorOutput)")  // CURLE_PEER_FAILED_VERIFICATION
        #expect(server.handledCount == 0)
    }

    @Test func plainServerIsNotTLS() throws {
        let server = try TestServer()
        #expect(!server.server.isTLS)
    }

    @Test func plainHTTPOnTheTLSPortGetsNoHTTPAnswer() async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let server = try Self.tlsServer(certificate)
        let port = server.port
        let (answer, closed) = try await onThread { () -> ([UInt8], Bool) in
            let client = try RawHTTPClient(port: port, timeout: 5 * RawHTTPClient.slowdown)
            // The server may close before the request is all sent: only its answer matters.
            try? client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = (try? client.readToEnd()) ?? []
            return (answer, client.isClosedByPeer)
        }
        // GnuTLS reads "GET /" as a record header, refuses it and libmicrohttpd closes the
        // connection; a TLS alert would be allowed, an HTTP answer in clear text is not.
        #expect(closed)
        #expect(!String(decoding: answer, as: UTF8.self).contains("HTTP/"))
        #expect(server.handledCount == 0)
        // The refused connection costs nothing to the next, real, client.
        let result = try await onThread { try certificate.curl(port: port, "/hello") }
        #expect(result.output == "hello\n200")
    }

    /// OpenSSL 3's client refuses TLS 1.0 and 1.1 by itself at its default security level
    /// (their signatures use SHA-1); at level 0 it offers them, so a refusal here is the server's.
    /// Against libmicrohttpd's default priorities ("NORMAL") the same curl gets its 200 over 1.1.
    @Test(arguments: [("1.3", true), ("1.2", true), ("1.1", false), ("1.0", false)])
    func onlyTLS12AndLaterAreAccepted(version: String, accepted: Bool) async throws {
        let certificate = try await onThread { try SelfSignedCertificate() }
        let server = try Self.tlsServer(certificate)
        let port = server.port
        let result = try await onThread {
            try certificate.curl(
                port: port, "/hello", options: ["--tlsv\(version)", "--tls-max", version, "--ciphers", "DEFAULT:@SECLEVEL=0"])
        }
        if accepted {
            #expect(result.status == 0, "curl: \(result.errorOutput)")
            #expect(result.output == "hello\n200")
        } else {
            #expect(result.status == 35, "curl: \(result.errorOutput)")  // CURLE_SSL_CONNECT_ERROR
            #expect(server.handledCount == 0)
        }
    }

    enum UnusablePair: CaseIterable {
        case garbageKey, garbageCertificate, swapped, keyOfAnotherCertificate, certificateOnly, keyOnly, emptyTexts

        /// The configuration's certificate and key for this case, from `certificate` (and
        /// `other`, a second one) and what the start error says.
        func pair(_ certificate: SelfSignedCertificate, other: SelfSignedCertificate) -> (String?, String?, String) {
            switch self {
            case .garbageKey: (certificate.certificate, "not a key", "refused")
            case .garbageCertificate: (String(certificate.certificate.reversed()), certificate.key, "refused")
            case .swapped: (certificate.key, certificate.certificate, "refused")
            case .keyOfAnotherCertificate: (certificate.certificate, other.key, "do not match")
            case .certificateOnly: (certificate.certificate, nil, "needs both")
            case .keyOnly: (nil, certificate.key, "needs both")
            case .emptyTexts: ("", "", "refused")
            }
        }
    }

    @Test(arguments: UnusablePair.allCases)
    func unusableCertificateOrKeyIsAStartError(_ unusable: UnusablePair) async throws {
        let (certificate, other) = try await onThread { (try SelfSignedCertificate(), try SelfSignedCertificate()) }
        let (certificateText, keyText, says) = unusable.pair(certificate, other: other)
        let error = try #require(throws: (any Error).self) {
            try TestServer {
                $0.tlsCertificate = certificateText
                $0.tlsKey = keyText
            }
        }
        #expect("\(error)".contains(says), "\(error)")
    }
}
