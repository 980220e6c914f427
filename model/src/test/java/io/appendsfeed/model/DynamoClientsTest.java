package io.appendsfeed.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoClientsTest {

    @Test
    void static_local_credentials_only_for_a_loopback_endpoint() {
        for (String local : new String[] {"http://localhost:8000", "http://LOCALHOST:8000", "http://127.0.0.1:8000", "http://127.1.2.3:8000",
            "http://[::1]:8000"}) {
            DynamoClients.Settings s = DynamoClients.Settings.of(local, null);
            assertThat(s.credentials()).as(local).contains(DynamoClients.LOCAL_CREDENTIALS);
            assertThat(s.region()).as(local).contains(DynamoClients.LOCAL_REGION);
        }
        for (String remote : new String[] {"https://dynamodb.eu-west-1.amazonaws.com", "http://10.0.0.5:8000",
            "http://localhost.localstack.cloud:4566", "https://vpce-1.dynamodb.eu-west-1.vpce.amazonaws.com"}) {
            DynamoClients.Settings s = DynamoClients.Settings.of(remote, "eu-west-1");
            assertThat(s.credentials()).as(remote + ": the SDK's chain, so real credentials work").isEmpty();
            assertThat(s.endpoint()).contains(URI.create(remote));
            assertThat(s.region()).contains(Region.EU_WEST_1);
        }
        assertThat(DynamoClients.Settings.of(null, null).credentials()).isEmpty();
    }

    @Test
    void a_malformed_endpoint_is_refused_saying_what_a_url_looks_like() {
        for (String bad : new String[] {"localhost:8000", "htp:/localhost", "http://", "ftp://localhost:21", "http://local host"}) {
            assertThatThrownBy(() -> DynamoClients.endpoint(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("give http(s)://host[:port]");
        }
    }

    @Test
    void a_client_failing_fast_gives_up_on_a_closed_port_after_its_attempts_where_the_default_makes_nine() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        DynamoClients.Settings local = DynamoClients.Settings.of("http://localhost:" + port, null);
        assertThat(attempts(local.failingFast(Duration.ofSeconds(2), 3))).isEqualTo(3);
        assertThat(attempts(local)).as("the SDK's default for DynamoDB").isEqualTo(9);
        assertThat(local.failingFast(Duration.ofSeconds(2), 3).withMaxConnections(5).maxAttempts()).as("kept by the other withers").isEqualTo(3);
    }

    private static int attempts(DynamoClients.Settings settings) {
        try (DynamoDbClient dynamo = DynamoClients.dynamoDb(settings)) {
            try {
                dynamo.listTables();
            } catch (SdkClientException e) {
                return e.numAttempts();
            }
        }
        throw new AssertionError("a closed port answered");
    }
}
