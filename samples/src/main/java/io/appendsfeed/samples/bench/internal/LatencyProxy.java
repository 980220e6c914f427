package io.appendsfeed.samples.bench.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on the loopback delaying every byte by half a round trip each way, so that clients of DynamoDB Local
 * wait on the network as a Lambda waits on DynamoDB. Per direction a reader stamps what arrives and a writer passes it
 * on when due: a request in several segments is delayed once.
 */
public final class LatencyProxy implements AutoCloseable {

    private static final byte[] END = new byte[0];

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final long halfNanos;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private LatencyProxy(InetSocketAddress target, double roundTripMillis) throws IOException {
        this.target = target;
        this.halfNanos = (long) (roundTripMillis * 1e6 / 2);
        this.server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "latency-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** A proxy to {@code endpoint} (http://host:port) adding {@code roundTripMillis} to every call's round trip. */
    public static LatencyProxy to(URI endpoint, double roundTripMillis) {
        if (roundTripMillis <= 0) {
            throw new IllegalArgumentException("a round trip must be > 0 ms, was " + roundTripMillis);
        }
        try {
            return new LatencyProxy(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), roundTripMillis);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a proxy socket on the loopback: " + e.getMessage(), e);
        }
    }

    /** Where clients connect instead of the target. */
    public URI endpoint() {
        return URI.create("http://" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
    }

    private void accept() {
        while (!closed) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                out.connect(target, 2_000);
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                sockets.add(in);
                sockets.add(out);
                pipe(in, out, "up");
                pipe(out, in, "down");
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("latency proxy: " + e.getMessage());
                }
            }
        }
    }

    private record Chunk(long at, byte[] bytes) {}

    private void pipe(Socket from, Socket to, String direction) throws IOException {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    queue.add(new Chunk(System.nanoTime(), Arrays.copyOf(buf, n)));
                }
            } catch (IOException e) {
                // the connection closed
            }
            queue.add(new Chunk(System.nanoTime(), END));
        }, "latency-proxy-" + direction + "-read");
        Thread writer = new Thread(() -> {
            try {
                while (true) {
                    Chunk c = queue.take();
                    long wait;
                    while ((wait = c.at() + halfNanos - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (c.bytes() == END) {
                        to.shutdownOutput();
                        return;
                    }
                    out.write(c.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                quietly(from);
                quietly(to);
            }
        }, "latency-proxy-" + direction + "-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static void quietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        quietly(server);
        sockets.forEach(LatencyProxy::quietly);
    }
}
