package io.appendsfeed.samples.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyProxyTest {

    /** Echoes what it reads on each connection. */
    private static ServerSocket echo() throws IOException {
        ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread c = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // the client went away
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return server;
    }

    @Test
    void passes_every_byte_in_order_both_ways_and_holds_each_exchange_for_the_round_trip() throws IOException {
        byte[] sent = new byte[300_000]; // many TCP segments, more than one read's buffer
        new Random(7).nextBytes(sent);
        try (ServerSocket server = echo();
             LatencyProxy proxy = LatencyProxy.to(URI.create("http://127.0.0.1:" + server.getLocalPort()), 40)) {
            assertThat(proxy.endpoint().getHost()).isEqualTo("127.0.0.1");
            try (Socket s = new Socket(proxy.endpoint().getHost(), proxy.endpoint().getPort())) {
                for (int exchange = 0; exchange < 3; exchange++) {
                    long start = System.nanoTime();
                    Thread writer = new Thread(() -> {
                        try {
                            s.getOutputStream().write(sent);
                            s.getOutputStream().flush();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    writer.start();
                    byte[] back = new byte[sent.length];
                    new DataInputStream(s.getInputStream()).readFully(back);
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    assertThat(back).as("exchange %d", exchange).isEqualTo(sent);
                    // each byte is held half the round trip on the way in and half on the way out: never less
                    assertThat(ms).as("exchange %d took %d ms", exchange, ms).isGreaterThanOrEqualTo(40);
                }
            }
        }
    }

    @Test
    void refuses_a_round_trip_that_is_not_positive() {
        assertThatThrownBy(() -> LatencyProxy.to(URI.create("http://127.0.0.1:1"), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("> 0 ms");
    }
}
