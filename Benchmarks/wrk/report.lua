-- Appended to every scenario: prints machine-readable latency percentiles, bytes read and errors.
function done(summary, latency, requests)
  io.write(string.format("JSON {\"requests\":%d,\"duration_us\":%d,\"bytes\":%d,\"p50_us\":%d,\"p90_us\":%d,\"p99_us\":%d,\"errors\":%d,\"non2xx\":%d}\n",
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))
end
