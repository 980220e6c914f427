package io.appendsfeed.indexer.cli;

import io.appendsfeed.reader.cli.FeedCli;
import io.appendsfeed.reader.cli.internal.CliContext;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import picocli.CommandLine;

/**
 * The entry point of the operations CLI jar ({@code java -jar appendsfeed-indexer-<version>-cli.jar}):
 * the reader's {@code feed} commands (checkpoints, epochs, tail, parked, verify) and the indexer's
 * operations ({@code backfill}, {@code kcl}, {@code poll}). It lives here because this module sees
 * both; picocli is an optional dependency of both libraries, so SDK users never get it.
 */
public final class FeedMain {

    /** Logging of the long-running operations; the inspection commands print only their own output. */
    static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

    private FeedMain() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        CliContext ctx = new CliContext(System::getenv, out, err, Clock.systemUTC(), System.console() != null);
        System.exit(commandLine(ctx).execute(args));
    }

    /** The whole CLI, for tests and embedding. */
    public static CommandLine commandLine(CliContext ctx) {
        CommandLine cmd = FeedCli.commandLine(ctx, BackfillCommand.class, KclCommand.class, PollCommand.class);
        CommandLine.IExecutionStrategy run = cmd.getExecutionStrategy();
        cmd.setExecutionStrategy(parsed -> {
            // before any logger exists: the operations log their progress (INFO), the rest only problems
            if (System.getProperty(LOG_LEVEL) == null) {
                Object command = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1).getCommand();
                System.setProperty(LOG_LEVEL, command instanceof Operation ? "info" : "warn");
                System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
                System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSX");
            }
            return run.execute(parsed);
        });
        return cmd;
    }
}
