package dev.warden.client.support;

import dev.warden.client.ConnectionState;
import dev.warden.client.StateListener;
import dev.warden.client.WatchEvent;
import dev.warden.client.Watcher;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Collects watch events and state changes so tests can wait for them. */
public final class Events implements Watcher, StateListener {
    private final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();

    @Override
    public void process(WatchEvent event) {
        events.add(event);
    }

    @Override
    public void stateChanged(ConnectionState newState) {
        states.add(newState);
    }

    public WatchEvent nextEvent(Duration timeout) throws InterruptedException {
        WatchEvent event = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("no watch event within " + timeout);
        }
        return event;
    }

    public WatchEvent pollEvent(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public ConnectionState nextState(Duration timeout) throws InterruptedException {
        ConnectionState state = states.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (state == null) {
            throw new AssertionError("no state change within " + timeout);
        }
        return state;
    }

    /** Waits for a given state, skipping others; returns the time waited in ms. */
    public long awaitState(ConnectionState wanted, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            ConnectionState state = states.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (state == null) {
                throw new AssertionError("state " + wanted + " not reached within " + timeout);
            }
            if (state == wanted) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            }
        }
    }

    public boolean noMoreEvents(Duration wait) throws InterruptedException {
        return events.poll(wait.toMillis(), TimeUnit.MILLISECONDS) == null;
    }
}
