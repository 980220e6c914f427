package io.appendsfeed.samples.todo;

import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.samples.local.LocalEnvironment;
import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The todo service on {@code http://localhost:8080} (or {@code -Dport=}) over DynamoDB Local, until Ctrl-C. */
public final class TodoSample {

    private TodoSample() {}

    public static void main(String[] args) throws InterruptedException {
        LocalEnvironment env = LocalEnvironment.fromArgs(args);
        StoreTables.ensure(env.dynamo(), "todo-events", StreamViewType.NEW_IMAGE);
        Todos todos = new Todos(new StoreClient(env.dynamo(), StoreConfig.builder("todo-events").build()));
        TodoHttpServer server = TodoHttpServer.start(todos, Integer.getInteger("port", 8080));
        String u = server.uri().toString();
        System.out.println("todo service on " + u + " (DynamoDB Local " + env.endpoint() + ", table todo-events). Try:");
        System.out.println("  curl -i -X POST " + u + "/todos -d '{\"list\":\"home\",\"title\":\"milk\"}'");
        System.out.println("  curl -i " + u + "/todos/<id>");
        System.out.println("  curl -i -X PUT " + u + "/todos/<id> -H 'If-Match: \"1\"' -d '{\"title\":\"oat milk\",\"completed\":true}'");
        System.out.println("  curl -i -X DELETE " + u + "/todos/<id> -H 'If-Match: \"3\"'");
        System.out.println("Ctrl-C to stop.");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            env.close();
            stopped.countDown();
        }, "todo-stop"));
        stopped.await();
    }
}
