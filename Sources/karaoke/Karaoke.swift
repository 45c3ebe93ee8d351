import ArgumentParser

@main
struct Karaoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karaoke",
        abstract: "Karaoke scoring server: plays songs, listens to singers, scores them.",
        subcommands: [
            CalibrateCommand.self,
            PitchCommand.self,
            PlayCommand.self,
            ScoreCommand.self,
            ScoresCommand.self,
            ServeCommand.self,
            ShowCommand.self,
            SongsCommand.self,
        ]
    )
}
