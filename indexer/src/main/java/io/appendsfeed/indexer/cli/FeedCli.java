package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.CliContext;
import io.appendsfeed.indexer.cli.internal.Durations;
import io.appendsfeed.indexer.cli.UsageException;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
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
 * streams) and verifies it against the store table. The indexer's operations (backfill, the KCL
 * worker, the poller) are added by the indexer module's entry point, {@code FeedMain}, which builds
 * the one CLI jar; the reader SDK itself never needs picocli. Exit codes: 0 fine, 1 a problem was
 * found (or DynamoDB failed), 2 bad usage or a malformed value, 3 DynamoDB cannot be reached or
 * authenticated with (no region, no credentials, an endpoint that does not answer, credentials refused).
 */
@Command(name = "feed", mixinStandardHelpOptions = true, versionProvider = FeedCli.Version.class,
        description = "Operate an appendsfeed feed: inspect and repair its index (checkpoints, epochs, parked streams),"
                + " verify it against the store, and run the indexer's operations.",
        subcommands = {CheckpointsCommand.class, EpochsCommand.class, TailCommand.class, ParkedCommand.class,
                VerifyCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 fine, 1 a problem was found (or DynamoDB failed), 2 bad usage or a malformed value,"
                + " 3 cannot connect or authenticate (no region, no credentials, no answer within about "
                + CliSettings.DEAD_ENDPOINT_SECONDS + " s, credentials refused)."})
public final class FeedCli implements Callable<Integer> {

    public static final int OK = 0;
    public static final int PROBLEM = 1;
    public static final int USAGE = 2;
    public static final int CANNOT_CONNECT = 3;
    /** DynamoDB's error codes for credentials it does not accept (unknown, expired, or a signature that does not match). */
    private static final java.util.Set<String> REFUSED_CREDENTIALS = java.util.Set.of("UnrecognizedClientException",
            "InvalidClientTokenId", "InvalidSignatureException", "ExpiredTokenException", "MissingAuthenticationTokenException",
            "IncompleteSignatureException");

    @Spec
    CommandSpec spec;

    private final CliContext ctx;

    FeedCli(CliContext ctx) {
        this.ctx = ctx;
    }

    /** A command line writing to {@code out}/{@code err} and reading variables from {@code env} (for tests and embedding). */
    public static CommandLine commandLine(Function<String, String> env, PrintWriter out, PrintWriter err) {
        return commandLine(new CliContext(env, out, err, Clock.systemUTC(), false));
    }

    /**
     * The {@code feed} command line for one run.
     *
     * @param more further subcommands (the indexer's operations), each built by the same factory
     */
    public static CommandLine commandLine(CliContext ctx, Class<?>... more) {
        CommandLine cmd = new CommandLine(FeedCli.class, new Factory(ctx));
        for (Class<?> c : more) {
            cmd.addSubcommand(new CommandLine(c, new Factory(ctx)));
        }
        cmd.registerConverter(java.time.Duration.class, new Durations()); // 500ms, 5s, 2m and ISO-8601, everywhere
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
        if (e.getCause() instanceof CommandLine.TypeConversionException || e.getMessage().startsWith("Invalid value for")) {
            // a malformed value: one line saying what is wrong with it
            err.println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
            err.flush();
            return USAGE;
        }
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
            // one line: what is wrong and what to type instead
            err.println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
            err.flush();
            return USAGE;
        }
        CannotConnectException cannot = e instanceof CannotConnectException c ? c : cannotConnect(e, ctxWhere(cmd));
        if (cannot != null) {
            err.println(cmd.getCommandSpec().qualifiedName() + ": " + cannot.getMessage());
            err.flush();
            return CANNOT_CONNECT;
        }
        if (e instanceof SdkException) {
            String where = ctxWhere(cmd);
            err.println(cmd.getCommandSpec().qualifiedName() + ": DynamoDB at " + where + " failed: " + e.getMessage());
            err.println("Check --endpoint / --region / --profile (or APPENDS_DYNAMODB_ENDPOINT, AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION,"
                    + " AWS_PROFILE) and your AWS credentials.");
            err.flush();
            return PROBLEM;
        }
        err.println("feed: " + cmd.getCommandSpec().qualifiedName() + " failed: " + e);
        e.printStackTrace(err);
        err.flush();
        return PROBLEM;
    }

    /**
     * The SDK failure as "cannot connect or authenticate", one line, or null when it is another failure:
     * a connection refused, an unknown host or a timeout to connect (after the CLI's attempts), or
     * credentials DynamoDB refused.
     */
    static CannotConnectException cannotConnect(Throwable e, String where) {
        SdkException sdk = null;
        for (Throwable t = e; t != null && sdk == null; t = t.getCause()) {
            sdk = t instanceof SdkException s ? s : null;
        }
        if (sdk == null) {
            return null;
        }
        if (sdk instanceof software.amazon.awssdk.awscore.exception.AwsServiceException service && service.awsErrorDetails() != null
                && REFUSED_CREDENTIALS.contains(service.awsErrorDetails().errorCode())) {
            return new CannotConnectException(CannotConnectException.Missing.AUTHENTICATION, "DynamoDB at " + where
                    + " refused the credentials (" + service.awsErrorDetails().errorCode() + "): check --profile / "
                    + CliSettings.PROFILE_VAR + " or " + CliSettings.ACCESS_KEY_VAR + " / " + CliSettings.SECRET_KEY_VAR
                    + " (expired? log in again)", sdk);
        }
        for (Throwable t = sdk; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException || t instanceof java.net.SocketTimeoutException
                    || t.getClass().getName().equals("org.apache.http.conn.ConnectTimeoutException")) {
                Integer attempts = sdk.numAttempts();
                Throwable root = t;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
                return new CannotConnectException(CannotConnectException.Missing.ENDPOINT, "cannot reach DynamoDB at " + where + ": "
                        + why + " after "
                        + (attempts == null ? "its" : attempts) + " attempts of at most " + CliSettings.CONNECT_TIMEOUT.toSeconds()
                        + " s each to connect: check --endpoint / --region (or " + CliSettings.ENDPOINT_VAR + ", "
                        + CliSettings.REGION_VAR + ") and the network", sdk);
            }
        }
        return null;
    }

    private static String ctxWhere(CommandLine cmd) {
        CommandLine root = cmd;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        String where = root.getCommand() instanceof FeedCli f && f.ctx != null ? f.ctx.where().get() : null;
        return where == null ? "(not connected)" : where;
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
            return new String[] {"feed (appendsfeed) " + (v == null ? "development build" : v)};
        }
    }
}
