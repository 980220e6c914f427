package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.ParkedStream;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "release", mixinStandardHelpOptions = true,
        description = "Releases parked streams: the reader holding their partition replays them from the store table from where they stopped.")
final class ReleaseParkedCommand extends FeedCommand {

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
    String group;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    static final class Which {
        @Option(names = "--stream", paramLabel = "STREAM", description = "the parked stream, e.g. Account-42")
        String stream;

        @Option(names = "--all", description = "every stream parked in the group")
        boolean all;
    }

    @Option(names = "--by", paramLabel = "NAME", description = "who releases, recorded with the release (default: the OS user)")
    String by;

    @Override
    public Integer call() {
        String g = group(group);
        StreamName one = which.stream == null ? null : stream("--stream", which.stream);
        String releaser = who(by);
        try (Connection c = connect(Connection.Use.WRITE, false)) {
            DynamoParkedStreams parked = c.parked();
            if (one != null) {
                if (!parked.release(g, one, releaser)) {
                    List<ParkedStream> now = parked.list(g);
                    ctx.err().println("feed: " + one + " is not parked in group " + g + "; "
                            + (now.isEmpty() ? "nothing is parked there" : "parked: "
                            + String.join(", ", now.stream().map(p -> p.stream().value()).toList())));
                    ctx.err().flush();
                    return FeedCli.PROBLEM;
                }
                ctx.out().println("released " + one + " in group " + g
                        + ": a reader holding its partition replays it from where it stopped");
            } else {
                List<ParkedStream> now = parked.list(g);
                int released = 0;
                for (ParkedStream p : now) {
                    if (parked.release(g, p.stream(), releaser)) {
                        ctx.out().println("released " + p.stream() + " in group " + g);
                        released++;
                    }
                }
                ctx.out().println(released == 0 ? "nothing is parked in group " + g : "released " + released
                        + (released == 1 ? " stream" : " streams") + " in group " + g
                        + ": readers holding their partitions replay them from where they stopped");
            }
            ctx.out().flush();
            return FeedCli.OK;
        }
    }
}
