package io.appendsfeed.samples.demo;

import java.io.PrintStream;
import picocli.CommandLine;

/**
 * The one-command demo:
 * {@code mvn -B -q -pl samples -am package -DskipTests -Pdemo -Ddemo.args="--events 20000 --streams 500"}.
 * Exit code 0 when what was written, indexed and handled agree; 1 when they do not; 2 when the
 * demo could not run (bad options, a failure).
 */
public final class Demo {

    public static final int AGREE = 0;
    public static final int DISAGREE = 1;
    public static final int FAILED = 2;

    private Demo() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the demo with these command-line arguments; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        DemoOptions options = new DemoOptions();
        CommandLine cli = new CommandLine(options);
        try {
            cli.parseArgs(args);
            if (cli.isUsageHelpRequested()) {
                cli.usage(out);
                return AGREE;
            }
            options.validate();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            err.println("demo: " + e.getMessage());
            cli.usage(err);
            return FAILED;
        }
        DemoRun run = new DemoRun(options, out);
        try {
            return run.run() ? AGREE : DISAGREE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("demo: interrupted");
            return FAILED;
        } catch (RuntimeException e) {
            err.println("demo failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        } finally {
            if (!options.stay) {
                run.close();
            }
        }
    }
}
