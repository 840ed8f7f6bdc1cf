package dev.warden.server.threads;

import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every thread of a server is made here: the stage threads, the member's driver, log and apply
 * threads, the Netty event loops, the timers and the snapshot writer. So each is named (thread
 * dumps and logs say which server and which job), a daemon (a server that is closed or dies
 * never keeps the JVM up), and logs what kills it instead of vanishing on stderr.
 */
public final class ServerThreads {
    private static final Logger log = LoggerFactory.getLogger(ServerThreads.class);

    private ServerThreads() {
    }

    /** A started thread running {@code body}. */
    public static Thread start(String name, Runnable body) {
        Thread thread = newThread(name, body);
        thread.start();
        return thread;
    }

    /** A thread not yet started, for a class that starts it in its own {@code start()}. */
    public static Thread newThread(String name, Runnable body) {
        Thread thread = new FastThreadLocalThread(body, name);
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((dead, e) -> log.error("thread {} died", dead.getName(), e));
        return thread;
    }

    /** Names the threads {@code name}, then {@code name-2}, {@code name-3}... */
    public static ThreadFactory factory(String name) {
        AtomicInteger made = new AtomicInteger();
        return body -> {
            int n = made.incrementAndGet();
            return newThread(n == 1 ? name : name + "-" + n, body);
        };
    }

    /** A Netty event loop group of {@code threads} threads. */
    public static NioEventLoopGroup eventLoops(String name, int threads) {
        return new NioEventLoopGroup(threads, factory(name));
    }

    public static ScheduledExecutorService timer(String name) {
        return Executors.newSingleThreadScheduledExecutor(factory(name));
    }

    public static ExecutorService single(String name) {
        return Executors.newSingleThreadExecutor(factory(name));
    }
}
