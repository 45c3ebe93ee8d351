// Vocal reduction: how much of a centre vocal it removes and what it costs, side by side in
// one run. Build and run (release; not part of the tests):
//
//     swift build -c release --product vocal-reduction-bench
//     "$(swift build -c release --show-bin-path)/vocal-reduction-bench" [--seconds 60] [--repeats 5]
//
// Prints a Markdown table (with the date and load average) for docs/audio-engine.md.
// Mixes: `StereoTestMix` (synthesised sung vowel, centre, over a stereo band), and — when
// espeak-ng is installed — the same band with an espeak-ng voice (material this project did not
// make) in the centre. Cost: thread CPU time of `VocalReducer.process` alone on the mix, and of
// the whole playback renderer (Rubber Band included) with reduction off and on, alternating.
import AudioEngine
import AudioFiles
import Foundation
import TestSupport

var seconds = 60.0
var repeats = 5
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--seconds": seconds = Double(arguments.popFirst() ?? "") ?? seconds
    case "--repeats": repeats = Int(arguments.popFirst() ?? "") ?? repeats
    default: FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8)); exit(2)
    }
}

func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func reduce(_ x: StereoTestMix.Stereo, rate: Double) -> StereoTestMix.Stereo {
    var reducer = VocalReducer(sampleRate: rate)
    var l = x.left, r = x.right
    reducer.process(left: &l, right: &r, block: 1024)
    return StereoTestMix.Stereo(left: l, right: r)
}

/// dB of `vocal` removed when mixed over `backing` (linear: residual = reduce(mix) − reduce(backing)).
func vocalCut(vocal: StereoTestMix.Stereo, backing: StereoTestMix.Stereo, rate: Double) -> Double {
    let mixed = reduce(backing + vocal, rate: rate), band = reduce(backing, rate: rate)
    let residual = StereoTestMix.Stereo(left: zip(mixed.left, band.left).map(-), right: zip(mixed.right, band.right).map(-))
    return StereoTestMix.decibels(before: vocal.energy, after: residual.energy)
}

/// An espeak-ng voice (female, variant f3) as long as the band, in the centre; nil without espeak-ng.
func espeakVocal(frames: Int, rate: Double) -> StereoTestMix.Stereo? {
    let wav = NSTemporaryDirectory() + "vocal-reduction-bench-\(getpid()).wav"
    defer { try? FileManager.default.removeItem(atPath: wav) }
    let text = "Morning on the hill, the river runs below, and every bell is ringing as the shadows come and go."
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
    process.arguments = ["-v", "en+f3", "-s", "130", "-w", wav, text]
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationStatus == 0, let voice = try? AudioFile.read(path: wav) else { return nil }
    let mono = Resampler.resample(voice.mono(), from: voice.sampleRate, to: rate)
    guard !mono.isEmpty else { return nil }
    let v = (0..<frames).map { 0.5 * mono[$0 % mono.count] }
    return StereoTestMix.Stereo(left: v, right: v)
}

let song = StereoTestMix(seconds: seconds)
let rate = song.rate
let frames = song.backing.left.count

// Removal.
let synthCut = vocalCut(vocal: song.vocal, backing: song.backing, rate: rate)
let espeak = espeakVocal(frames: frames, rate: rate)
let espeakCut = espeak.map { vocalCut(vocal: $0, backing: song.backing, rate: rate) }
let bassLoss = StereoTestMix.decibels(before: song.bass.energy, after: reduce(song.bass, rate: rate).energy)

// Cost of the filter alone.
var filterBest = Double.infinity
for _ in 0..<repeats {
    var l = song.mix.left, r = song.mix.right
    var reducer = VocalReducer(sampleRate: rate)
    let start = threadCPU()
    reducer.process(left: &l, right: &r, block: 1024)
    filterBest = min(filterBest, threadCPU() - start)
    precondition(l[frames / 2].isFinite)
}

// Cost inside the renderer (Rubber Band, fades, tap), off and on alternating.
let track = TrackSource(left: song.mix.left, right: song.mix.right, sampleRate: rate)
var rendererOff = Double.infinity, rendererOn = Double.infinity
for _ in 0..<max(1, repeats / 2) {
    for on in [false, true] {
        let start = threadCPU()
        let out = PlayedBacking.render(track, vocalReduction: on)
        let spent = threadCPU() - start
        precondition(out.count > frames / 2)
        if on { rendererOn = min(rendererOn, spent) } else { rendererOff = min(rendererOff, spent) }
    }
}

var load = [Double](repeating: 0, count: 3)
_ = getloadavg(&load, 3)
let audioSeconds = Double(frames) / rate
func percent(_ cpu: Double) -> String { String(format: "%.3f %%", 100 * cpu / audioSeconds) }
print("Vocal reduction, \(Int(audioSeconds)) s stereo at \(Int(rate)) Hz, best of \(repeats) — \(ISO8601DateFormatter().string(from: Date())), load average \(load.map { String(format: "%.2f", $0) }.joined(separator: " "))")
print("")
print("| measure | figure |")
print("|---|---|")
print(String(format: "| synthesised sung vowel (centre) removed | %.1f dB |", synthCut))
if let espeakCut { print(String(format: "| espeak-ng voice en+f3 (centre) removed | %.1f dB |", espeakCut)) } else { print("| espeak-ng voice | (espeak-ng not installed) |") }
print(String(format: "| centre bass (55–82 Hz) lost | %.2f dB |", bassLoss))
print("| `VocalReducer.process` alone, CPU per second of audio | \(percent(filterBest)) of one core |")
print("| renderer (Rubber Band at key 0) without reduction | \(percent(rendererOff)) of one core |")
print("| renderer with reduction | \(percent(rendererOn)) of one core |")
print("| reduction's share inside the renderer (difference) | \(percent(rendererOn - rendererOff)) of one core |")
