package io.appendsfeed.indexer.settings;

import io.appendsfeed.model.metrics.EmfMetrics;
import io.appendsfeed.model.metrics.Metrics;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the Lambda and {@code feed kcl} send their figures (EMF lines on stdout). Each variable has our name
 * and AWS Lambda Powertools', so a function configured for Powertools needs nothing more; ours wins.
 */
public record MetricsSettings(boolean enabled, String namespace, String service) {

    public static final String METRICS = "APPENDS_METRICS";
    public static final String NAMESPACE = "APPENDS_METRICS_NAMESPACE";
    public static final String SERVICE_NAME = "APPENDS_SERVICE_NAME";
    public static final String POWERTOOLS_DISABLED = "POWERTOOLS_METRICS_DISABLED";
    public static final String POWERTOOLS_NAMESPACE = "POWERTOOLS_METRICS_NAMESPACE";
    public static final String POWERTOOLS_SERVICE_NAME = "POWERTOOLS_SERVICE_NAME";

    /** EMF lines in namespace {@value EmfMetrics#NAMESPACE}, no service dimension. */
    public static final MetricsSettings DEFAULT = new MetricsSettings(true, EmfMetrics.NAMESPACE, null);

    public MetricsSettings {
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("namespace must be non-empty");
        }
        if (service != null && service.isBlank()) {
            service = null;
        }
    }

    /** @throws IllegalArgumentException naming the variable whose value is not one it takes */
    public static MetricsSettings from(Function<String, String> env) {
        String ours = IndexerSettings.value(env, METRICS);
        String disabled = IndexerSettings.value(env, POWERTOOLS_DISABLED);
        boolean enabled = ours != null ? switch (ours.toLowerCase(Locale.ROOT)) {
            case "on", "true", "emf" -> true;
            case "off", "false", "none" -> false;
            default -> throw new IllegalArgumentException(METRICS + " is '" + ours + "': give on or off");
        } : disabled == null || switch (disabled.toLowerCase(Locale.ROOT)) {
            case "true", "1" -> false;
            case "false", "0" -> true;
            default -> throw new IllegalArgumentException(POWERTOOLS_DISABLED + " is '" + disabled + "': give true or false");
        };
        String namespace = first(env, NAMESPACE, POWERTOOLS_NAMESPACE);
        return new MetricsSettings(enabled, namespace != null ? namespace : EmfMetrics.NAMESPACE,
                first(env, SERVICE_NAME, POWERTOOLS_SERVICE_NAME));
    }

    /** EMF lines on stdout as these settings say, or {@link Metrics#NONE} when disabled. */
    public Metrics metrics() {
        return enabled ? new EmfMetrics(namespace, service == null ? Map.of() : Map.of("service", service)) : Metrics.NONE;
    }

    private static String first(Function<String, String> env, String ours, String powertools) {
        String v = IndexerSettings.value(env, ours);
        return v != null ? v : IndexerSettings.value(env, powertools);
    }
}
