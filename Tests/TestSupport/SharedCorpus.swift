import Foundation

/// The external song corpus at `<package root>/../shared/corpus`, which CI places beside the
/// clone. A fresh clone has no such folder: tests that read it are skipped with `absentReason`,
/// and what the product promises is covered by fixtures the project owns.
public enum SharedCorpus {
    public static let absentReason = "../shared/corpus is absent (fresh clone); CI runs this with the corpus"

    public static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "/nonexistent/shared/corpus")
    }()

    public static var isPresent: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
