import ArgumentParser

@main
struct Karaoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karaoke",
        abstract: "Karaoke scoring server: plays songs, listens to singers, scores them.",
        subcommands: [PitchCommand.self]
    )
}
