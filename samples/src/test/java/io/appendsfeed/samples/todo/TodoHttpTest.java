package io.appendsfeed.samples.todo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.samples.eventsourcing.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

@ExtendWith(LocalDynamoExtension.class)
class TodoHttpTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private StoreClient store;
    private TodoHttpServer server;

    @BeforeEach
    void start(LocalDynamo local) {
        String table = local.freshTableName("todos");
        StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_IMAGE);
        store = new StoreClient(local.dynamo(), StoreConfig.builder(table).build());
        server = TodoHttpServer.start(new Todos(store), 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path, String ifMatch, String body) throws IOException, InterruptedException {
        return http.send(request(method, path, ifMatch, body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String method, String path, String ifMatch, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.uri().resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (ifMatch != null) {
            b.header("If-Match", ifMatch);
        }
        return b.header("Content-Type", "application/json").build();
    }

    private static JsonNode json(HttpResponse<String> r) {
        return Json.read(r.body().getBytes(StandardCharsets.UTF_8), JsonNode.class);
    }

    private HttpResponse<String> create(String title) throws IOException, InterruptedException {
        return send("POST", "/todos", null, "{\"list\":\"home\",\"title\":\"" + title + "\"}");
    }

    @Test
    void create_answers_201_with_location_and_etag_and_get_returns_it() throws Exception {
        HttpResponse<String> created = create("milk");
        assertThat(created.statusCode()).isEqualTo(201);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches("/todos/[a-z0-9]{32}");
        assertThat(created.headers().firstValue("ETag")).contains("\"1\"");

        HttpResponse<String> got = send("GET", location, null, null);
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.headers().firstValue("ETag")).contains("\"1\"");
        assertThat(json(got).get("title").asText()).isEqualTo("milk");
        assertThat(json(got).get("list").asText()).isEqualTo("home");
        assertThat(json(got).get("completed").asBoolean()).isFalse();
    }

    @Test
    void update_with_the_current_etag_succeeds_and_returns_the_next_one() throws Exception {
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        HttpResponse<String> put = send("PUT", location, "\"1\"", "{\"title\":\"oat milk\",\"completed\":true}");
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(put.headers().firstValue("ETag")).contains("\"3\""); // Retitled + Completed
        assertThat(json(send("GET", location, null, null)).get("completed").asBoolean()).isTrue();
    }

    @Test
    void update_with_a_stale_etag_is_409_and_names_the_current_one() throws Exception {
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        send("PUT", location, "\"1\"", "{\"title\":\"oat milk\"}");
        HttpResponse<String> stale = send("PUT", location, "\"1\"", "{\"title\":\"soy milk\"}");
        assertThat(stale.statusCode()).isEqualTo(409);
        assertThat(stale.headers().firstValue("ETag")).contains("\"2\"");
        assertThat(json(stale).get("currentEtag").asText()).isEqualTo("\"2\"");
        assertThat(json(send("GET", location, null, null)).get("title").asText()).isEqualTo("oat milk");
    }

    @Test
    void update_or_delete_without_if_match_is_428() throws Exception {
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        assertThat(send("PUT", location, null, "{\"title\":\"oat milk\"}").statusCode()).isEqualTo(428);
        assertThat(send("DELETE", location, null, null).statusCode()).isEqualTo(428);
        assertThat(send("GET", location, null, null).headers().firstValue("ETag")).contains("\"1\"");
    }

    @Test
    void unknown_id_is_404_for_every_method() throws Exception {
        String unknown = "/todos/0123456789abcdef0123456789abcdef";
        assertThat(send("GET", unknown, null, null).statusCode()).isEqualTo(404);
        assertThat(send("PUT", unknown, "\"1\"", "{\"title\":\"x\"}").statusCode()).isEqualTo(404);
        assertThat(send("PUT", unknown, "*", "{\"title\":\"x\"}").statusCode()).isEqualTo(404);
        assertThat(send("DELETE", unknown, "\"1\"", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/todos/Not-An-Id", null, null).statusCode()).isEqualTo(404);
    }

    @Test
    void delete_is_an_event_the_history_stays_and_the_todo_is_gone() throws Exception {
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        assertThat(send("DELETE", location, "\"1\"", null).statusCode()).isEqualTo(204);
        assertThat(send("GET", location, null, null).statusCode()).isEqualTo(410);
        assertThat(send("PUT", location, "\"2\"", "{\"title\":\"x\"}").statusCode()).isEqualTo(410);

        StreamName stream = new TodoId(location.substring("/todos/".length())).stream();
        assertThat(store.readAll(stream, Read.forward(0))).extracting(StoredEvent::type).containsExactly("Created", "Deleted");
    }

    @Test
    void two_clients_updating_from_the_same_etag_one_wins_one_gets_409() throws Exception {
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        List<CompletableFuture<HttpResponse<String>>> racing = List.of(
                http.sendAsync(request("PUT", location, "\"1\"", "{\"title\":\"a\"}"), HttpResponse.BodyHandlers.ofString()),
                http.sendAsync(request("PUT", location, "\"1\"", "{\"title\":\"b\"}"), HttpResponse.BodyHandlers.ofString()));
        List<Integer> statuses = racing.stream().map(CompletableFuture::join).map(HttpResponse::statusCode).toList();
        assertThat(statuses).containsExactlyInAnyOrder(200, 409);
        assertThat(send("GET", location, null, null).headers().firstValue("ETag")).contains("\"2\"");
    }

    @Test
    void bad_requests_say_what_is_wrong() throws Exception {
        HttpResponse<String> noTitle = send("POST", "/todos", null, "{\"list\":\"home\"}");
        assertThat(noTitle.statusCode()).isEqualTo(400);
        assertThat(json(noTitle).get("error").asText()).contains("'title' must be a non-empty string");
        assertThat(send("POST", "/todos", null, "not json").statusCode()).isEqualTo(400);
        String location = create("milk").headers().firstValue("Location").orElseThrow();
        assertThat(send("PUT", location, "W/\"1\"", "{\"title\":\"x\"}").statusCode()).isEqualTo(400);
        assertThat(send("PUT", location, "\"1\"", "{\"list\":\"work\",\"title\":\"x\"}").statusCode()).isEqualTo(422);
        HttpResponse<String> patch = send("PATCH", location, "\"1\"", "{}");
        assertThat(patch.statusCode()).isEqualTo(405);
        assertThat(patch.headers().firstValue("Allow")).contains("GET, HEAD, PUT, DELETE");
        assertThat(send("GET", "/elsewhere", null, null).statusCode()).isEqualTo(404);
    }
}
