extension WebSocketTestClient {
    /// Asks for `results` and waits up to 15 s for the answer. The room reads the store in a
    /// Task: poll briefly and sleep between, so no cooperative thread is blocked meanwhile.
    func requestResults() async throws -> [String: Any]? {
        try sendText(#"{"type":"results"}"#)
        var results: [String: Any]?
        for _ in 0..<300 where results == nil {
            results = try waitFor("results", timeout: 0.01)
            if results == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        return results
    }
}
