package io.appendsfeed.indexer.cli;

import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.GroupDeletion;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.StoredCheckpoint;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Deletes a consumer group: its checkpoints and parked streams, after recording the deletion (who, when,"
                + " why, and the checkpoints it had) in $ReaderGroups-0, shown by `feed checkpoints history`.",
                "Shows what would go and changes nothing without --yes. Refused while a reader holds one of its partitions:"
                        + " stop the group's readers first."})
final class DeleteGroupCommand extends FeedCommand {

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
    String group;

    @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "deleted with feed checkpoints delete",
            description = "why; kept in the record of the deletion")
    String reason;

    @Option(names = "--by", paramLabel = "NAME", description = "who deletes it, kept in the record (default: the OS user)")
    String by;

    @Option(names = "--yes", description = "delete (without it nothing is written)")
    boolean yes;

    @Override
    public Integer call() {
        String g = group(group);
        if (reason.isBlank()) {
            throw new UsageException("--reason is blank: say why the group goes, e.g. --reason \"typo, never used\"");
        }
        String who = who(by);
        try (Connection c = connect(Connection.Use.WRITE, false)) {
            DynamoCheckpointStore store = c.checkpoints();
            List<String> groups = store.groups();
            List<StoredCheckpoint> held = store.list(g);
            if (!groups.contains(g) && held.isEmpty()) {
                throw new UsageException("group '" + g + "' does not exist in index table '" + c.indexTable + "' ("
                        + (groups.isEmpty() ? "there are no groups" : "groups: " + String.join(", ", groups)) + ")");
            }
            PrintWriter out = ctx.out();
            out.println("group " + g + ": " + (held.isEmpty() ? "no checkpoints" : held.size() + (held.size() == 1 ? " checkpoint" : " checkpoints")));
            for (StoredCheckpoint s : held) {
                out.println("  partition " + s.partition() + ": " + s.checkpoint() + ", committed " + Formats.time(s.committedAt())
                        + " by " + s.committedBy());
            }
            out.println("  parked streams: " + c.parked().list(g).size());
            out.println("  reason: " + reason);
            out.println("  by:     " + who);
            if (!yes) {
                out.println("nothing changed: run again with --yes to delete the group");
                out.flush();
                return FeedCli.OK;
            }
            GroupDeletion r = store.deleteGroup(g, reason, who);
            if (r instanceof GroupDeletion.Leased l) {
                out.flush();
                for (Lease lease : l.live()) {
                    ctx.err().println("feed checkpoints delete: partition " + lease.partition() + " of group " + g + " is held by "
                            + lease.owner() + " until " + Formats.time(lease.expiresAt()));
                }
                ctx.err().println("feed checkpoints delete: nothing changed: stop the group's readers, then run again");
                ctx.err().flush();
                return FeedCli.PROBLEM;
            }
            GroupDeletion.Deleted d = (GroupDeletion.Deleted) r;
            out.println("done: group " + g + " deleted (" + d.itemsDeleted() + " items), recorded in " + DynamoCheckpointStore.GROUPS
                    + " (see: feed checkpoints history --group " + g + ")");
            out.flush();
            return FeedCli.OK;
        }
    }
}
