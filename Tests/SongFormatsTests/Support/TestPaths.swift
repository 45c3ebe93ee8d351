import Foundation

/// Locations of the package root, the shared corpus and the demo songs, found from this file.
enum TestPaths {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url = url.deletingLastPathComponent()
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    static var corpus: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus") }
    static var songs: URL { packageRoot.appendingPathComponent("songs") }

    static func corpusFile(_ folder: String, _ name: String) -> String {
        corpus.appendingPathComponent(folder).appendingPathComponent(name).path
    }

    /// Every corpus file in the format folders (not the spec texts or the manifest).
    static func corpusFiles() -> [String] {
        let formats = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        var files: [String] = []
        for folder in formats.sorted() where folder != "spec" {
            let dir = corpus.appendingPathComponent(folder)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else { continue }
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() {
                files.append(dir.appendingPathComponent(name).path)
            }
        }
        return files
    }
}
