package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.Indexer.PartitionCountMismatchException;
import io.appendsfeed.indexer.settings.IndexerSettings;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** The {@code feed} command, the entry point of the CLI jars; its exit codes are the constants below. */
@Command(name = "feed", mixinStandardHelpOptions = true, versionProvider = FeedCli.Version.class,
        description = "Operate an appendsfeed feed: inspect and repair its index (checkpoints, epochs, parked streams),"
                + " verify it against the store, and run the indexer's operations.",
        subcommands = {CheckpointsCommand.class, EpochsCommand.class, TailCommand.class, ParkedCommand.class, VerifyCommand.class,
            BackfillCommand.class, KclCommand.class, PollCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 fine, 1 a problem was found (or DynamoDB failed), 2 bad usage or a malformed value,"
                + " 3 cannot connect or authenticate (no region, no credentials, no answer within about "
                + Connection.DEAD_ENDPOINT_SECONDS + " s, credentials refused)."})
public final class FeedCli implements Callable<Integer> {

    public static final int OK = 0;
    /** A problem was found, or DynamoDB failed. */
    public static final int PROBLEM = 1;
    /** Bad usage or a malformed value. */
    public static final int USAGE = 2;
    /** DynamoDB cannot be reached or authenticated with: no region, no credentials, no answer, credentials refused. */
    public static final int CANNOT_CONNECT = 3;
    /** DynamoDB's error codes for credentials it does not accept (unknown, expired, or a signature that does not match). */
    private static final Set<String> REFUSED_CREDENTIALS = Set.of("UnrecognizedClientException", "InvalidClientTokenId",
            "InvalidSignatureException", "ExpiredTokenException", "MissingAuthenticationTokenException", "IncompleteSignatureException");
    private static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

    @Spec
    CommandSpec spec;

    // the connection options, on every command (picocli sets these fields wherever they are typed)
    @Option(names = "--endpoint", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = {"DynamoDB endpoint, e.g. http://localhost:8000 (env APPENDS_DYNAMODB_ENDPOINT, then the SDK's"
                    + " AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL; default: AWS). A loopback endpoint gets static local"
                    + " credentials unless --profile is given."})
    String endpoint;

    @Option(names = "--region", scope = ScopeType.INHERIT, paramLabel = "REGION", description = "AWS region (env AWS_REGION; default: the profile's, then the SDK's chain)")
    String region;

    @Option(names = "--profile", scope = ScopeType.INHERIT, paramLabel = "NAME", description = "AWS profile for credentials and region (default: the SDK's chain, which reads AWS_PROFILE)")
    String profile;

    @Option(names = "--store-table", scope = ScopeType.INHERIT, paramLabel = "TABLE", description = "the event store table (env APPENDS_STORE_TABLE)")
    String storeTable;

    @Option(names = "--index-table", scope = ScopeType.INHERIT, paramLabel = "TABLE", description = "the feed's index table (env APPENDS_INDEX_TABLE)")
    String indexTable;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(commandLine(new CliContext(System::getenv, out, err, Clock.systemUTC())).execute(args));
    }

    /** A command line writing to {@code out}/{@code err} and reading variables from {@code env}. */
    public static CommandLine commandLine(Function<String, String> env, PrintWriter out, PrintWriter err) {
        return commandLine(new CliContext(env, out, err, Clock.systemUTC()));
    }

    /** The {@code feed} command line for one run, every command running with {@code ctx}. */
    public static CommandLine commandLine(CliContext ctx) {
        CommandLine cmd = new CommandLine(new FeedCli()).setOut(ctx.out()).setErr(ctx.err())
                .setParameterExceptionHandler((e, args) -> badUsage(e))
                .setExecutionExceptionHandler((e, c, parsed) -> failed(e, c, ctx));
        CommandLine.IExecutionStrategy run = cmd.getExecutionStrategy();
        return cmd.setExecutionStrategy(parsed -> {
            List<CommandLine> chosen = parsed.asCommandLineList();
            if (chosen.get(chosen.size() - 1).getCommand() instanceof FeedCommand f) {
                f.ctx = ctx;
                // before any logger exists: the operations (with IndexerOptions) log their progress, the rest only problems
                if (System.getProperty(LOG_LEVEL) == null) {
                    System.setProperty(LOG_LEVEL, f.spec.mixins().containsKey("indexer") ? "info" : "warn");
                    System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
                    System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSX");
                }
            }
            try {
                return run.execute(parsed);
            } finally { // the commands print with println: a writer without autoflush gets all of it here
                ctx.out().flush();
                ctx.err().flush();
            }
        });
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given: type one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList()));
    }

    private static int badUsage(ParameterException e) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        if (e.getCause() instanceof CommandLine.TypeConversionException || e.getMessage().startsWith("Invalid value for")) {
            // a malformed value: one line saying what is wrong with it
            err.println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        } else {
            err.println("feed: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.print("Usage: " + cmd.getHelp().synopsis(0));
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more.");
        }
        err.flush();
        return USAGE;
    }

    private static int failed(Exception e, CommandLine cmd, CliContext ctx) {
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        String where = ctx.where().get() == null ? "(not connected)" : ctx.where().get();
        CliException known = e instanceof CliException c ? c
                // the index's count is fixed: the indexer's message says which to give
                : e instanceof PartitionCountMismatchException m ? new CliException(m.getMessage(), m) : cannotConnect(e, where);
        if (known != null) {
            err.println(name + ": " + known.getMessage()); // one line: what is wrong and what to type instead
        } else if (e instanceof SdkException) {
            err.println(name + ": DynamoDB at " + where + " failed: " + e.getMessage());
            err.println("Check --endpoint / --region / --profile (or APPENDS_DYNAMODB_ENDPOINT, AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION,"
                    + " AWS_PROFILE) and your AWS credentials.");
        } else {
            err.println("feed: " + name + " failed: " + e);
            e.printStackTrace(err);
        }
        err.flush();
        return known != null ? known.exit : PROBLEM;
    }

    /** The SDK failure as "cannot connect or authenticate" (exit 3), or null when it is another failure. */
    static CliException cannotConnect(Throwable e, String where) {
        SdkException sdk = null;
        for (Throwable t = e; t != null && sdk == null; t = t.getCause()) { // the SDK's failure, wrapped or not
            sdk = t instanceof SdkException s ? s : null;
        }
        if (sdk instanceof AwsServiceException service && service.awsErrorDetails() != null
                && REFUSED_CREDENTIALS.contains(service.awsErrorDetails().errorCode())) {
            return new CliException(CANNOT_CONNECT, "DynamoDB at " + where + " refused the credentials ("
                    + service.awsErrorDetails().errorCode() + "): check --profile / AWS_PROFILE or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY"
                    + " (expired? log in again)", sdk);
        }
        for (Throwable t = sdk; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException || t instanceof java.net.SocketTimeoutException
                    || t.getClass().getName().equals("org.apache.http.conn.ConnectTimeoutException")) {
                Throwable root = t;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                return new CliException(CANNOT_CONNECT, "cannot reach DynamoDB at " + where + ": "
                        + (root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName()) + " after "
                        + (sdk.numAttempts() == null ? "its" : sdk.numAttempts()) + " attempts of at most "
                        + Connection.CONNECT_TIMEOUT.toSeconds() + " s each to connect: check --endpoint / --region (or "
                        + IndexerSettings.ENDPOINT + ", AWS_REGION) and the network", sdk);
            }
        }
        return null;
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
