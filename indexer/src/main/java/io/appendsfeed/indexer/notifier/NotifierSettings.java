package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.Objects;
import java.util.function.Function;

/** The notifier Lambda's settings, from environment variables (DEPLOY.md, "The notifier"). */
public record NotifierSettings(String topicArn, DynamoClients.Settings sns) {

    public static final String TOPIC_ARN = "APPENDS_NOTIFY_TOPIC_ARN";
    public static final String ENDPOINT = "APPENDS_SNS_ENDPOINT";
    public static final String REGION = "AWS_REGION";

    /** The topic's ARN is checked by SNS, at the first publish. */
    public NotifierSettings {
        Objects.requireNonNull(topicArn, "topicArn");
        Objects.requireNonNull(sns, "sns");
    }

    /** @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes */
    public static NotifierSettings from(Function<String, String> env) {
        String topic = IndexerSettings.value(env, TOPIC_ARN);
        if (topic == null) {
            throw new IllegalArgumentException(TOPIC_ARN + " is not set: set it to the ARN of the SNS topic to notify");
        }
        return new NotifierSettings(topic, DynamoClients.Settings.of(env.apply(ENDPOINT), env.apply(REGION)));
    }
}
