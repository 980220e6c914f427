package io.appendsfeed.indexer.lambda.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.api.client.logging.FrameType;
import com.amazonaws.services.lambda.runtime.api.client.logging.FramedTelemetryLogSink;
import com.amazonaws.services.lambda.runtime.api.client.logging.LambdaContextLogger;
import com.amazonaws.services.lambda.runtime.logging.LogFormat;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileOutputStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.BasicMdc;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Through the Lambda Java runtime's own logger and log framing (aws-lambda-java-runtime-interface-client),
 * set up as the runtime sets it up for a function with {@code LogFormat: JSON}: what reaches Lambda's
 * log pipeline is one frame per line, typed JSON with its level, holding our JSON object.
 */
class LambdaRuntimeLoggingTest {

    record Frame(int type, String payload) {}

    @Test
    void each_line_is_one_json_frame_with_its_level_and_the_runtime_applies_the_function_log_level(@TempDir Path dir) throws Exception {
        BasicMdc.install();
        Path frames = dir.resolve("frames");
        Field field = LambdaRuntime.class.getDeclaredField("logger");
        field.setAccessible(true); // as the runtime itself installs its logger
        LambdaLogger before = (LambdaLogger) field.get(null);
        try (FileOutputStream fd = new FileOutputStream(frames.toFile())) {
            field.set(null, new LambdaContextLogger(new FramedTelemetryLogSink(fd.getFD()), LogLevel.INFO, LogFormat.JSON));
            // our binding at DEBUG, the function's application log level INFO: the runtime drops the DEBUG line
            Logger log = LambdaLoggingProvider.loggers(Map.of("AWS_LAMBDA_LOG_FORMAT", "JSON",
                    "AWS_LAMBDA_LOG_LEVEL", "DEBUG")::get, LambdaLoggingProvider::runtime).getLogger("io.appendsfeed.indexer.Indexer");
            MDC.put("AWSRequestId", "req-9");
            log.info("batch: {} records", 3);
            log.debug("per record");
            log.warn("not ingested from {}", "4000001");
        } finally {
            field.set(null, before);
            MDC.clear();
        }

        List<Frame> read = frames(Files.readAllBytes(frames));
        assertThat(read).hasSize(2);
        assertThat(read.get(0).type()).isEqualTo(FrameType.getValue(LogLevel.INFO, LogFormat.JSON));
        assertThat(read.get(1).type()).isEqualTo(FrameType.getValue(LogLevel.WARN, LogFormat.JSON));
        JsonNode info = new ObjectMapper().readTree(read.get(0).payload());
        assertThat(info.get("message").asText()).isEqualTo("batch: 3 records");
        assertThat(info.get("AWSRequestId").asText()).isEqualTo("req-9");
        assertThat(info.get("level").asText()).isEqualTo("INFO");
    }

    /** The runtime's framing: type (4 bytes), length (4), timestamp in microseconds (8), message; big-endian. */
    private static List<Frame> frames(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<Frame> out = new ArrayList<>();
        while (b.remaining() > 0) {
            int type = b.getInt();
            int length = b.getInt();
            b.getLong();
            byte[] message = new byte[length];
            b.get(message);
            out.add(new Frame(type, new String(message, StandardCharsets.UTF_8)));
        }
        return out;
    }
}
