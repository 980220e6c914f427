package io.appendsfeed.reader.cli;

import io.appendsfeed.reader.cli.internal.CliContext;
import io.appendsfeed.reader.cli.internal.UsageException;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The {@code feed} command: inspects and repairs a feed's index table (checkpoints, epochs, parked
 * streams) and verifies it against the store table. Exit codes: 0 fine, 1 a problem was found (or
 * DynamoDB failed), 2 bad usage.
 */
@Command(name = "feed", mixinStandardHelpOptions = true, versionProvider = FeedCli.Version.class,
        description = "Inspect and repair an appendsfeed index: checkpoints, epochs, parked streams; verify it against the store.",
        subcommands = {CheckpointsCommand.class, EpochsCommand.class, TailCommand.class, ParkedCommand.class,
                VerifyCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 fine, 1 a problem was found (or DynamoDB failed), 2 bad usage."})
public final class FeedCli implements Callable<Integer> {

    public static final int OK = 0;
    public static final int PROBLEM = 1;
    public static final int USAGE = 2;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // the CLI reports through its own output; the library's log lines would only interleave with it
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "WARN");
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        CliContext ctx = new CliContext(System::getenv, out, err, Clock.systemUTC(), System.console() != null);
        System.exit(commandLine(ctx).execute(args));
    }

    /** A command line writing to {@code out}/{@code err} and reading variables from {@code env} (for tests and embedding). */
    public static CommandLine commandLine(Function<String, String> env, PrintWriter out, PrintWriter err) {
        return commandLine(new CliContext(env, out, err, Clock.systemUTC(), false));
    }

    static CommandLine commandLine(CliContext ctx) {
        CommandLine cmd = new CommandLine(FeedCli.class, new Factory(ctx));
        cmd.setOut(ctx.out());
        cmd.setErr(ctx.err());
        cmd.setParameterExceptionHandler(FeedCli::badUsage);
        cmd.setExecutionExceptionHandler((e, c, parsed) -> failed(e, c));
        return cmd;
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given: type one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList()));
    }

    private static int badUsage(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("feed: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.print("Usage: " + cmd.getHelp().synopsis(0));
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more.");
        err.flush();
        return USAGE;
    }

    private static int failed(Exception e, CommandLine cmd) {
        PrintWriter err = cmd.getErr();
        if (e instanceof UsageException) {
            err.println("feed: " + e.getMessage());
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more.");
            err.flush();
            return USAGE;
        }
        if (e instanceof SdkException) {
            err.println("feed: DynamoDB failed: " + e.getMessage());
            err.println("Check --endpoint / --region (or APPENDS_DYNAMODB_ENDPOINT / AWS_REGION) and your AWS credentials.");
            err.flush();
            return PROBLEM;
        }
        err.println("feed: " + cmd.getCommandSpec().qualifiedName() + " failed: " + e);
        e.printStackTrace(err);
        err.flush();
        return PROBLEM;
    }

    /** Hands the run's {@link CliContext} to commands whose constructor takes one. */
    private record Factory(CliContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            try {
                Constructor<K> c = cls.getDeclaredConstructor(CliContext.class);
                c.setAccessible(true);
                return c.newInstance(ctx);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(cls);
            }
        }
    }

    /** The version from the jar's manifest, when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = FeedCli.class.getPackage().getImplementationVersion();
            return new String[] {"feed (appendsfeed reader) " + (v == null ? "development build" : v)};
        }
    }
}
