import Foundation

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass.
public func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
