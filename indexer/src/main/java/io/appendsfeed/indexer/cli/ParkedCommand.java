package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "parked", mixinStandardHelpOptions = true,
        description = {"Streams whose handler kept failing, parked with the reason and where they stopped.",
                "Exits 1 when any stream is parked, so that scripts and monitors can alert on it."},
        subcommands = ParkedCommand.Release.class)
final class ParkedCommand extends FeedCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "only this consumer group")
    String group;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Override
    public Integer call() {
        String only = group == null ? null : group(group);
        try (Connection c = connect(Connection.Use.READ, false)) {
            DynamoParkedStreams parked = new DynamoParkedStreams(c.index(), ctx.clock());
            List<String> groups = only == null ? new DynamoCheckpointStore(c.index(), ctx.clock()).groups() : List.of(only);
            List<ParkedStream> all = groups.stream().flatMap(g -> parked.list(g).stream()).toList();
            ArrayNode a = Output.array();
            Output.Table t = new Output.Table("GROUP", "STREAM", "PARTITION>", "FROM INDEX>", "POSITION>", "ATTEMPTS>", "PARKED AT", "REASON");
            for (ParkedStream p : all) {
                a.addObject().put("group", p.group()).put("stream", p.stream().value()).put("partition", p.partition().value())
                        .put("fromIndex", p.fromIndex()).put("checkpoint", p.position().value())
                        .put("position", p.position().display()).put("attempts", p.attempts())
                        .put("parkedAt", p.parkedAt().toString()).put("reason", p.reason());
                t.row(p.group(), p.stream(), p.partition(), p.fromIndex(), p.position().display(), p.attempts(),
                        Output.time(p.parkedAt()), p.reason().replace('\n', ' '));
            }
            Output.print(ctx.out(), json, a, t, only == null ? "no stream is parked in any group" : "no stream is parked in group " + only);
            return all.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
        }
    }

    @Command(name = "release", mixinStandardHelpOptions = true,
            description = "Releases parked streams: the reader holding their partition replays them from the store table from where they stopped.")
    static final class Release extends FeedCommand {

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
                DynamoParkedStreams parked = new DynamoParkedStreams(c.index(), ctx.clock());
                if (one != null && !parked.release(g, one, releaser)) {
                    List<ParkedStream> now = parked.list(g);
                    ctx.err().println("feed: " + one + " is not parked in group " + g + "; " + (now.isEmpty() ? "nothing is parked there"
                            : "parked: " + String.join(", ", now.stream().map(p -> p.stream().value()).toList())));
                    return FeedCli.PROBLEM;
                }
                if (one != null) {
                    ctx.out().println("released " + one + " in group " + g + ": a reader holding its partition replays it from where it stopped");
                    return FeedCli.OK;
                }
                int released = 0;
                for (ParkedStream p : parked.list(g)) {
                    if (parked.release(g, p.stream(), releaser)) {
                        ctx.out().println("released " + p.stream() + " in group " + g);
                        released++;
                    }
                }
                ctx.out().println(released == 0 ? "nothing is parked in group " + g : "released " + Output.plural(released, "stream")
                        + " in group " + g + ": readers holding their partitions replay them from where they stopped");
                return FeedCli.OK;
            }
        }
    }
}
