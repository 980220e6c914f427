package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.ParkedStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "parked", mixinStandardHelpOptions = true,
        description = {"Streams whose handler kept failing, parked with the reason and where they stopped.",
                "Exits 1 when any stream is parked, so that scripts and monitors can alert on it."},
        subcommands = ReleaseParkedCommand.class)
final class ParkedCommand extends FeedCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "only this consumer group")
    String group;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Override
    public Integer call() {
        String only = group == null ? null : group(group);
        try (Connection c = connect(Connection.Use.READ, false)) {
            DynamoParkedStreams parked = c.parked();
            List<String> groups = only == null ? c.checkpoints().groups() : List.of(only);
            List<ParkedStream> all = new ArrayList<>();
            for (String g : groups) {
                all.addAll(parked.list(g));
            }
            if (json) {
                ArrayNode a = Formats.array();
                for (ParkedStream p : all) {
                    a.addObject().put("group", p.group()).put("stream", p.stream().value()).put("partition", p.partition().value())
                            .put("fromIndex", p.fromIndex()).put("checkpoint", p.position().value())
                            .put("position", p.position().display()).put("attempts", p.attempts())
                            .put("parkedAt", p.parkedAt().toString()).put("reason", p.reason());
                }
                Formats.printJson(ctx.out(), a, true);
            } else if (all.isEmpty()) {
                ctx.out().println(only == null ? "no stream is parked in any group" : "no stream is parked in group " + only);
            } else {
                Table t = new Table("GROUP", "STREAM", "PARTITION>", "FROM INDEX>", "POSITION>", "ATTEMPTS>", "PARKED AT", "REASON");
                for (ParkedStream p : all) {
                    t.row(p.group(), p.stream(), p.partition(), p.fromIndex(), p.position().display(), p.attempts(),
                            Formats.time(p.parkedAt()), p.reason().replace('\n', ' '));
                }
                t.print(ctx.out());
                ctx.out().println(all.size() + (all.size() == 1 ? " stream" : " streams")
                        + " parked; after fixing the cause: feed parked release --group GROUP --stream STREAM (or --all)");
            }
            ctx.out().flush();
            return all.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
        }
    }
}
