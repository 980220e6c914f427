package io.appendsfeed.samples.todo;

import io.appendsfeed.samples.eventsourcing.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/** An HTTP response to send: status, headers, and a JSON body (null for none). */
record Reply(int status, Map<String, String> headers, byte[] body) {

    static Reply json(int status, Object body) {
        return new Reply(status, new LinkedHashMap<>(Map.of("Content-Type", "application/json")), Json.bytes(body));
    }

    static Reply empty(int status) {
        return new Reply(status, new LinkedHashMap<>(), null);
    }

    static Reply problem(int status, String error) {
        return json(status, new TodoJson.Problem(error, null));
    }

    Reply header(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
