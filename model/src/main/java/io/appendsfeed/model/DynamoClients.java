package io.appendsfeed.model;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Builds the SDK clients the way every deployable does, so that tests on DynamoDB Local and production share one path. */
public final class DynamoClients {

    /** DynamoDB Local accepts any region and credentials. */
    public static final Region LOCAL_REGION = Region.US_EAST_1;
    public static final AwsCredentialsProvider LOCAL_CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

    /**
     * Where and how to connect.
     *
     * @param endpoint an endpoint override (DynamoDB Local, LocalStack); empty for AWS
     * @param region empty for the SDK's default chain
     * @param credentials empty for the SDK's default chain
     * @param connectTimeout null for the HTTP client's default (2 s)
     * @param maxAttempts attempts per call, the first included; 0 for the SDK's default (DynamoDB's: 9, about 9 s against a refusing endpoint)
     */
    public record Settings(Optional<URI> endpoint, Optional<Region> region,
                           Optional<AwsCredentialsProvider> credentials, int maxConnections,
                           Duration connectTimeout, int maxAttempts) {
        public Settings {
            Objects.requireNonNull(endpoint, "endpoint");
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(credentials, "credentials");
            // the SDK's builders refuse maxConnections and maxAttempts (when set) below 1 when the client is built
        }

        /** AWS, with the SDK's default region and credential chains. */
        public static Settings aws() {
            return new Settings(Optional.empty(), Optional.empty(), Optional.empty(), 50, null, 0);
        }

        /** A local endpoint such as DynamoDB Local. */
        public static Settings local(URI endpoint) {
            return new Settings(Optional.of(endpoint), Optional.of(LOCAL_REGION), Optional.of(LOCAL_CREDENTIALS), 50, null, 0);
        }

        /**
         * From optional command-line or environment values; a loopback endpoint gets the local credentials (and region, unless given).
         *
         * @throws IllegalArgumentException when the endpoint is not an http(s) URL with a host
         */
        public static Settings of(String endpointOrNull, String regionOrNull) {
            Optional<URI> endpoint = Optional.ofNullable(blankToNull(endpointOrNull)).map(DynamoClients::endpoint);
            Optional<Region> region = Optional.ofNullable(blankToNull(regionOrNull)).map(Region::of);
            if (endpoint.isPresent() && isLoopback(endpoint.get())) {
                return new Settings(endpoint, region.or(() -> Optional.of(LOCAL_REGION)), Optional.of(LOCAL_CREDENTIALS), 50, null, 0);
            }
            return new Settings(endpoint, region, Optional.empty(), 50, null, 0);
        }

        public Settings with(Optional<Region> otherRegion, Optional<AwsCredentialsProvider> otherCredentials) {
            return new Settings(endpoint, otherRegion, otherCredentials, maxConnections, connectTimeout, maxAttempts);
        }

        public Settings withMaxConnections(int n) {
            return new Settings(endpoint, region, credentials, n, connectTimeout, maxAttempts);
        }

        /** Fails fast when DynamoDB cannot be reached (a tool's settings). */
        public Settings failingFast(Duration timeout, int attempts) {
            return new Settings(endpoint, region, credentials, maxConnections, Objects.requireNonNull(timeout, "timeout"), attempts);
        }

        private static String blankToNull(String s) {
            return s == null || s.isBlank() ? null : s.trim();
        }
    }

    private DynamoClients() {}

    /** @throws IllegalArgumentException saying what is wrong, when it is not an http(s) URL with a host */
    public static URI endpoint(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URL (" + e.getReason() + "): give http(s)://host[:port],"
                    + " e.g. http://localhost:8000", e);
        }
        if (uri.getScheme() == null || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + text + "' is not an http(s) URL with a host: give http(s)://host[:port],"
                    + " e.g. http://localhost:8000");
        }
        return uri;
    }

    /** Whether the endpoint is on this machine: {@code localhost}, 127.0.0.0/8 or {@code [::1]} (names are not looked up). */
    public static boolean isLoopback(URI endpoint) {
        String host = endpoint.getHost() == null ? "" : endpoint.getHost().toLowerCase(Locale.ROOT);
        return host.equals("localhost") || host.equals("[::1]") || host.matches("127\\.[0-9.]+");
    }

    public static DynamoDbClient dynamoDb(Settings settings) {
        return configure(DynamoDbClient.builder(), settings).build();
    }

    public static DynamoDbStreamsClient streams(Settings settings) {
        return configure(DynamoDbStreamsClient.builder(), settings).build();
    }

    private static <B extends AwsSyncClientBuilder<B, ?> & AwsClientBuilder<B, ?>> B configure(B b, Settings settings) {
        ApacheHttpClient.Builder http = ApacheHttpClient.builder().maxConnections(settings.maxConnections());
        if (settings.connectTimeout() != null) {
            http.connectionTimeout(settings.connectTimeout());
        }
        b.httpClientBuilder(http).overrideConfiguration(o -> {
            o.apiCallAttemptTimeout(Duration.ofSeconds(10)).apiCallTimeout(Duration.ofSeconds(30));
            if (settings.maxAttempts() > 0) {
                o.retryStrategy(r -> r.maxAttempts(settings.maxAttempts())); // the service's own strategy, fewer attempts
            }
        });
        settings.endpoint().ifPresent(b::endpointOverride);
        settings.region().ifPresent(b::region);
        settings.credentials().ifPresent(b::credentialsProvider);
        return b;
    }
}
