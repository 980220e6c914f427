package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.FeedCli;
import io.appendsfeed.indexer.cli.CliContext;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import picocli.CommandLine;

/**
 * The entry point of the operations CLI jar ({@code java -jar appendsfeed-indexer-<version>-cli.jar}):
 * the reader's {@code feed} commands (checkpoints, epochs, tail, parked, verify) and the indexer's
 * operations ({@code backfill}, {@code poll}, and {@code kcl} from the {@code -kcl} jar, which adds KCL). It lives here because this module sees
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
            Object chosen = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1).getCommand();
            if (chosen instanceof KclCommand && !kclPresent() && !parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1).isUsageHelpRequested()) {
                ctx.err().println("feed kcl needs KCL, which this jar leaves out: run it from appendsfeed-indexer-<version>-kcl.jar"
                        + " (java -jar appendsfeed-indexer-<version>-kcl.jar kcl ...); locally, without KCL, use feed poll");
                return 2;
            }
            // before any logger exists: the operations log their progress (INFO), the rest only problems
            if (System.getProperty(LOG_LEVEL) == null) {
                System.setProperty(LOG_LEVEL, chosen instanceof Operation ? "info" : "warn");
                System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
                System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSX");
            }
            return run.execute(parsed);
        });
        return cmd;
    }

    /** Whether this jar carries KCL: the default CLI jar does not, the -kcl jar does. */
    static boolean kclPresent() {
        try {
            Class.forName("software.amazon.kinesis.coordinator.Scheduler", false, FeedMain.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
